package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// revisionEdit is one change made to a real CRD to write a revision:
// replace the first old after the line at (which occurs once; "" is the
// file's start, and then old occurs once) with new.
type revisionEdit struct{ at, old, new string }

// revisionFile is a file of the revision cases made from a shared
// corpus file and the edits that make it.
type revisionFile struct {
	name, corpus string
	edits        []revisionEdit
}

const (
	certificateCRD = "cert-manager/crds/certificates.cert-manager.io.yaml"
	ipAddressCRD   = "cluster-api/crds/ipaddresses.ipam.cluster.x-k8s.io.yaml"
	certManagerObj = "cert-manager/examples/test__fixtures__cert-manager-resources.yaml"
)

// corpusSHA256 holds the sha256 of each corpus file the goldens of
// testdata/revision were written from.
var corpusSHA256 = map[string]string{
	certificateCRD: "c0d1a3f51f8b13ba55b34300aa495606e3f4104eebc69d9c7b63efbcdebf70c3",
	ipAddressCRD:   "d5068e3d0031f0cca9514492712384d4325b2481d3e6854da1192dc6d88c28cd",
	certManagerObj: "2d073493c0d1dbbea06e38dbcb85dd6905d43d2854ceb3d9877507f11bed2c84",
}

var (
	// Certificate's new revision: spec.commonName removed; spec.secretName
	// gets maxLength 4 and the transition rule self == oldSelf; spec gets
	// a rule that no DNS name is a wildcard.
	newCertificate = []revisionEdit{
		{"", "              commonName:\n" +
			"                description: |-\n" +
			"                  Requested common name X509 certificate subject attribute.\n" +
			"                  More info: https://datatracker.ietf.org/doc/html/rfc5280#section-4.1.2.6\n" +
			"                  NOTE: TLS clients will ignore this value when any subject alternative name is\n" +
			"                  set (see https://tools.ietf.org/html/rfc6125#section-6.4.4).\n" +
			"\n" +
			"                  Should have a length of 64 characters or fewer to avoid generating invalid CSRs.\n" +
			"                  Cannot be set if the `literalSubject` field is set.\n" +
			"                type: string\n", ""},
		{"", "the same namespace as the Certificate resource.\n                type: string\n",
			"the same namespace as the Certificate resource.\n                maxLength: 4\n                type: string\n" +
				"                x-kubernetes-validations:\n" +
				"                - message: secretName is immutable\n" +
				"                  rule: self == oldSelf\n"},
		{"", "            - secretName\n            type: object\n",
			"            - secretName\n            type: object\n" +
				"            x-kubernetes-validations:\n" +
				"            - message: wildcard DNS names are not allowed\n" +
				"              rule: '!has(self.dnsNames) || self.dnsNames.all(n, !n.startsWith(\"*\"))'\n"},
	}
	// IPAddress's new revision: v1alpha1 no longer served, spec.gateway
	// removed from v1beta2.
	newIPAddress = []revisionEdit{
		{"  name: v1alpha1\n", "    served: true\n", "    served: false\n"},
		{"  name: v1beta2\n", "              gateway:\n" +
			"                description: gateway is the network gateway of the network the address\n" +
			"                  is from.\n" +
			"                maxLength: 39\n" +
			"                minLength: 1\n" +
			"                type: string\n", ""},
	}
)

// revisionFiles are the files of testdata/revision that are real corpus
// files, as they are or edited (see testdata/revision/README.md). They
// are not committed: revisionDir writes them from ../shared.
var revisionFiles = []revisionFile{
	{name: "old/certificates.cert-manager.io.yaml", corpus: certificateCRD},
	{name: "old/ipaddresses.ipam.cluster.x-k8s.io.yaml", corpus: ipAddressCRD},
	{name: "objects/cert-manager-resources.yaml", corpus: certManagerObj},
	{name: "new/certificates.cert-manager.io.yaml", corpus: certificateCRD, edits: newCertificate},
	{name: "new/ipaddresses.ipam.cluster.x-k8s.io.yaml", corpus: ipAddressCRD, edits: newIPAddress},
	// An old revision the apiserver rejects: a string field with an
	// integer default.
	{name: "bad/invalid-old-certificates.yaml", corpus: certificateCRD, edits: []revisionEdit{
		{"", "the same namespace as the Certificate resource.\n                type: string\n",
			"the same namespace as the Certificate resource.\n                default: 5\n                type: string\n"},
	}},
	// A revision that changes the scope.
	{name: "bad/scope-changed-ipaddresses.yaml", corpus: ipAddressCRD, edits: append(newIPAddress[:len(newIPAddress):len(newIPAddress)],
		revisionEdit{"", "  scope: Namespaced\n", "  scope: Cluster\n"})},
}

// revisionDir returns a directory holding the revision cases' inputs:
// a copy of testdata/revision (files of our own) and revisionFiles
// written from the shared corpus. Without the corpus the test is skipped
// saying so (it fails under CRDSCHEMA_REQUIRE_SHARED=1); a corpus file
// that changed, or an edit that no longer applies, fails it.
func revisionDir(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", "revision"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	for _, f := range revisionFiles {
		data := sharedFile(t, "corpus/"+f.corpus, corpusSHA256[f.corpus])
		text, err := applyEdits(string(data), f.edits)
		if err != nil {
			t.Fatalf("%s from %s: %v", f.name, f.corpus, err)
		}
		path := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// applyEdits applies edits to text in order.
func applyEdits(text string, edits []revisionEdit) (string, error) {
	for _, e := range edits {
		from := 0
		if e.at != "" {
			if n := strings.Count(text, e.at); n != 1 {
				return "", fmt.Errorf("%q occurs %d times, want once", e.at, n)
			}
			from = strings.Index(text, e.at) + len(e.at)
		} else if n := strings.Count(text, e.old); n != 1 {
			return "", fmt.Errorf("%q occurs %d times, want once", e.old, n)
		}
		i := strings.Index(text[from:], e.old)
		if i < 0 {
			return "", fmt.Errorf("%q not found after %q", e.old, e.at)
		}
		i += from
		text = text[:i] + e.new + text[i+len(e.old):]
	}
	return text, nil
}
