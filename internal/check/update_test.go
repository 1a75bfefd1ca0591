package check

import (
	"slices"
	"strings"
	"testing"
)

// errorKeys renders errors as "Type field" for comparison.
func updateErrorKeys(t *testing.T, newYAML, oldYAML string) []string {
	t.Helper()
	var out []string
	for _, e := range Update(decodeCRD(t, newYAML), decodeCRD(t, oldYAML)) {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	return out
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
