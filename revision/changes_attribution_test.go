package revision_test

import (
	"github.com/crdschema/crdschema/revision"
	"strings"
	"testing"
)

// TestChangesAttribution: several changes of one revision on the same
// object (issue 24, the shape of the cert-manager Certificate revision of
// the revision goldens): a field removed, a maxLength tightened with a
// transition rule added on the same field, a rule added on their parent.
// Each change is classified by what it causes: the removal alone loses
// data, the new rule on spec is ratcheted by its own error (not by the
// removed field lost on read), the transition rule is breaking by its own
// error on an update that changes the field (it never runs on a create,
// and the create error is the maxLength's).
func TestChangesAttribution(t *testing.T) {
	next := strings.NewReplacer(
		"              legacy: {type: string}\n", "",
		"name: {type: string, maxLength: 63}", "name: {type: string, maxLength: 4, x-kubernetes-validations: [{rule: \"self == oldSelf\"}]}",
		"          spec:\n            type: object\n", "          spec:\n            type: object\n            x-kubernetes-validations: [{rule: \"!has(self.tags) || self.tags.size() < 2\"}]\n",
	).Replace(gadgetCRD)
	got := changesOf(t, gadgetCRD, next)
	want := []string{
		"v1 spec rule-added ratcheted",
		"v1 spec.legacy field-removed data-loss",
		"v1 spec.name bounds-tightened ratcheted",
		"v1 spec.name rule-added breaking",
	}
	var kinds []string
	for _, c := range got {
		kinds = append(kinds, c.Version+" "+c.Path+" "+c.Kind+" "+c.Class)
		if c.Static {
			t.Errorf("static: %s", line(c))
		}
	}
	if strings.Join(kinds, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines(got), "\n"), strings.Join(want, "\n"))
	}
	for _, c := range got {
		switch c.Path {
		case "spec":
			if strings.Contains(c.Detail, "legacy") || !strings.Contains(c.Detail, "failed rule: !has(self.tags) || self.tags.size() < 2") {
				t.Errorf("spec rule: %s", line(c))
			}
		case "spec.name":
			if c.Kind == "rule-added" && strings.Contains(c.Detail, "Too long") {
				t.Errorf("transition rule classified by the maxLength's error: %s", line(c))
			}
		}
	}
}

// TestChangesAttributionCertificate: the same four edits on the real
// cert-manager Certificate (the revision goldens of `crdschema revision`):
// only the removal of spec.commonName loses data; the transition rule on
// spec.secretName is not classified by the new maxLength's create error
// but by an update changing the name. (The rule on spec is found
// ratcheted by a boundary probe, a dnsNames item built from the rule's
// "*"; it once was "data-loss" by spec.commonName, then a static
// approximation.)
func TestChangesAttributionCertificate(t *testing.T) {
	const commonName = "              commonName:\n                description: |-\n                  Requested common name X509 certificate subject attribute.\n                  More info: https://datatracker.ietf.org/doc/html/rfc5280#section-4.1.2.6\n                  NOTE: TLS clients will ignore this value when any subject alternative name is\n                  set (see https://tools.ietf.org/html/rfc6125#section-6.4.4).\n\n                  Should have a length of 64 characters or fewer to avoid generating invalid CSRs.\n                  Cannot be set if the `literalSubject` field is set.\n                type: string\n"
	const secretName = "                  resource lives in the same namespace as the Certificate resource.\n                type: string\n"
	const spec = "            - issuerRef\n            - secretName\n            type: object\n"
	old, next := corpusPair(t, "cert-manager/crds/certificates.cert-manager.io.yaml",
		[2]string{commonName, ""},
		[2]string{secretName, secretName + "                maxLength: 4\n                x-kubernetes-validations:\n                - message: secretName is immutable\n                  rule: self == oldSelf\n"},
		[2]string{spec, spec + "            x-kubernetes-validations:\n            - message: wildcard DNS names are not allowed\n              rule: '!has(self.dnsNames) || self.dnsNames.all(n, !n.startsWith(\"*\"))'\n"})
	got := revision.Changes(old, next)
	want := []string{
		"v1 spec rule-added ratcheted",
		"v1 spec.commonName field-removed data-loss",
		"v1 spec.secretName bounds-tightened ratcheted",
		"v1 spec.secretName rule-added breaking",
	}
	var kinds []string
	for _, c := range got {
		kinds = append(kinds, c.Version+" "+c.Path+" "+c.Kind+" "+c.Class)
	}
	if strings.Join(kinds, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(lines(got), "\n"), strings.Join(want, "\n"))
	}
	for _, c := range got {
		if c.Kind == "rule-added" && (strings.Contains(c.Detail, "commonName") || strings.Contains(c.Detail, "Too long")) {
			t.Errorf("another change's effect: %s", line(c))
		}
	}
	t.Logf("%s", strings.Join(lines(got), "\n"))
}
