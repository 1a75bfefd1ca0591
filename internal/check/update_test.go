package check

import (
	"slices"
	"strings"
	"testing"
)

// updateErrorKeys renders the errors of an update as "Type field" for
// comparison. It checks that the update's answer is the same whether it
// is told that the create accepts the new CRD or not.
func updateErrorKeys(t *testing.T, newYAML, oldYAML string) []string {
	t.Helper()
	crd, old := decodeCRD(t, newYAML), decodeCRD(t, oldYAML)
	createErrs, _ := CRD(crd)
	full, reused := Update(crd, old, false), Update(crd, old, len(createErrs) == 0)
	var out, reusedOut []string
	for _, e := range full {
		out = append(out, e.Error())
	}
	for _, e := range reused {
		reusedOut = append(reusedOut, e.Error())
	}
	if !slices.Equal(out, reusedOut) {
		t.Errorf("update errors after an accepted create\n%q\nwant\n%q", reusedOut, out)
	}
	out = out[:0]
	for _, e := range full {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	return out
}

// withWebhook adds a conversion webhook with caBundle to crdWith's CRD.
func withWebhook(crd, caBundle string) string {
	return strings.Replace(crd, "  scope: Namespaced\n", "  scope: Namespaced\n  conversion:\n    strategy: Webhook\n    webhook:\n"+
		"      conversionReviewVersions: [v1]\n      clientConfig: {url: 'https://example.com/convert', caBundle: "+caBundle+"}\n", 1)
}

// TestUpdateBehaviours pins the contract's surprising behaviours of CRD
// updates, each observed with the apiserver code.
func TestUpdateBehaviours(t *testing.T) {
	nonAtomicSet := `              targets: {type: array, x-kubernetes-list-type: set, items: {type: object}}
`
	for _, tc := range []struct {
		name     string
		old, new string
		want     []string
	}{
		{
			name: "ratcheting is per rule, for the whole CRD: a second non-atomic set",
			old:  crdWith(nonAtomicSet),
			new: crdWith(nonAtomicSet + `              more: {type: array, x-kubernetes-list-type: set, items: {type: object}}
`),
		},
		{
			name: "a create rejects the same non-atomic set",
			old: crdWith(`              a: {type: string}
`),
			new:  crdWith(nonAtomicSet),
			want: []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[targets].items.x-kubernetes-map-type"},
		},
		{
			name: "invalid types ratchet",
			old: crdWith(`              cronSpec: {type: foo}
`),
			new: crdWith(`              cronSpec: {type: foo}
              other: {type: bar}
`),
		},
		{
			name: "non-structural schemas do not ratchet for v1 CRDs",
			old: crdWith(`              cronSpec: {description: x}
`),
			new: crdWith(`              cronSpec: {description: x}
`),
			want: []string{"FieldValueRequired spec.validation.openAPIV3Schema.properties[spec].properties[cronSpec].type"},
		},
		{
			name: "CEL compile errors do not ratchet",
			old: crdWith(`              cronSpec: {type: string, x-kubernetes-validations: [{rule: self.nope()}]}
`),
			new: crdWith(`              cronSpec: {type: string, x-kubernetes-validations: [{rule: self.nope()}]}
`),
			want: []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[cronSpec].x-kubernetes-validations[0].rule"},
		},
		{
			name: "the name rule is create-only",
			old:  strings.Replace(crdWith(""), "name: crontabs.stable.example.com", "name: wrong.example.com", 1),
			new:  strings.Replace(crdWith(""), "name: crontabs.stable.example.com", "name: wrong.example.com", 1),
		},
		{
			name: "plural, scope, kind and group are immutable",
			old:  crdWith(""),
			new: strings.NewReplacer("plural: crontabs", "plural: crontabz", "Namespaced", "Cluster",
				"kind: CronTab", "kind: CronTabz", "group: stable.example.com", "group: other.example.com").Replace(crdWith("")),
			want: []string{
				"FieldValueInvalid spec.group",
				"FieldValueInvalid spec.names.kind",
				"FieldValueInvalid spec.names.plural",
				"FieldValueInvalid spec.scope",
			},
		},
		{
			name: "a stored version must remain",
			old:  crdWith(""),
			new:  strings.Replace(crdWith(""), "name: v1\n", "name: v2\n", 1),
			want: []string{"FieldValueInvalid status.storedVersions[0]"},
		},
		{
			name: "metadata immutability errors come twice",
			old:  crdWith(""),
			new:  strings.Replace(crdWith(""), "metadata: {name: crontabs.stable.example.com}", "metadata: {name: crontabs.stable.example.com, uid: other}", 1),
			want: []string{"FieldValueInvalid metadata.uid", "FieldValueInvalid metadata.uid"},
		},
		{
			name: "an invalid caBundle is accepted on create, rejected once established",
			old:  crdWith(""),
			new:  withWebhook(crdWith(""), "Zm9v"),
			want: []string{"FieldValueInvalid spec.conversion.webhookClientConfig.caBundle"},
		},
		{
			name: "an invalid caBundle stays accepted while the stored one is invalid",
			old:  withWebhook(crdWith(""), "YmFy"),
			new:  withWebhook(crdWith(""), "Zm9v"),
		},
		{
			name: "preserveUnknownFields may not become true",
			old:  crdWith(""),
			new:  strings.Replace(crdWith(""), "  scope: Namespaced\n", "  scope: Namespaced\n  preserveUnknownFields: true\n", 1),
			want: []string{"FieldValueInvalid spec.preserveUnknownFields"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := updateErrorKeys(t, tc.new, tc.old)
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
