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

// crdWithRoot is a CRD whose schema root has the line rootDefault (a
// default, or ""), the root properties root and, beside spec.a, the spec
// properties spec (each indented as crdWith's).
func crdWithRoot(rootDefault, root, spec string) string {
	return strings.Replace(crdWith(`              a: {type: string}
`+spec), `        type: object
        properties:
`, `        type: object
`+rootDefault+`        properties:
`+root, 1)
}

// TestUpdatePrunedDefaults pins which stored CRDs count as already
// having unpruned defaults, so that the revision may add one (here
// spec.unpruned, whose default has the unknown field b): the apiserver
// prunes each default inside an object holding only it, coerced and
// pruned as a whole, and gives up (no ratcheting) when it cannot place
// one. Every answer was observed with the apiserver code.
func TestUpdatePrunedDefaults(t *testing.T) {
	const added = `              unpruned: {type: object, properties: {a: {type: string}}, default: {a: x, b: 1}}
`
	const addedErr = "FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[unpruned].default"
	const metaForbidden = "FieldValueForbidden spec.validation.openAPIV3Schema.properties[metadata].default"
	for _, tc := range []struct {
		name                    string
		rootDefault, root, spec string
		want                    []string
	}{
		{name: "no default: a create's rules", want: []string{addedErr}},
		{name: "an unpruned default in spec ratchets",
			spec: "              old: {type: object, properties: {a: {type: string}}, default: {a: x, c: 1}}\n"},
		{name: "the root metadata's {name: x} is pruned: ObjectMeta keeps name",
			root: "          metadata: {type: object, default: {name: x}}\n",
			want: []string{metaForbidden, addedErr}},
		{name: "the root metadata's {labels: {}} is not: ObjectMeta drops it",
			root: "          metadata: {type: object, default: {labels: {}}}\n",
			want: []string{metaForbidden}},
		{name: "the root metadata's unknown field is not",
			root: "          metadata: {type: object, default: {foo: x}}\n",
			want: []string{metaForbidden}},
		{name: "an embedded resource's metadata {name: x} is pruned",
			spec: "              res: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, properties: {metadata: {type: object, default: {name: x}}}}\n",
			want: []string{addedErr}},
		{name: "an embedded resource's default with an unknown metadata field is not",
			spec: "              res: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, default: {apiVersion: v1, kind: Thing, metadata: {name: x, foo: y}}}\n"},
		{name: "an embedded resource's default with known metadata is pruned",
			spec: "              res: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, default: {apiVersion: v1, kind: Thing, metadata: {name: x}}}\n",
			want: []string{addedErr}},
		{name: "the items of a list preserving unknown fields keep theirs",
			spec: "              kept: {type: array, x-kubernetes-preserve-unknown-fields: true, items: {type: object, properties: {a: {type: string}}, default: {a: x, u: y}}}\n",
			want: []string{"FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[kept].items.default", addedErr}},
		{name: "below an object preserving unknown fields, a property's default is pruned as its own",
			spec: "              p: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {q: {type: object, properties: {a: {type: string}}, default: {a: x, b: 1}}}}\n"},
		{name: "an additionalProperties default with an unknown field ratchets",
			spec: "              m: {type: object, additionalProperties: {type: object, properties: {a: {type: string}}, default: {a: x, b: 1}}}\n"},
		{name: "a root default that is no object: the apiserver gives up",
			rootDefault: "        default: x\n",
			spec:        "              old: {type: object, properties: {a: {type: string}}, default: {a: x, c: 1}}\n",
			want: []string{
				"FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[old].default", addedErr,
				"FieldValueTypeInvalid spec.validation.openAPIV3Schema.default",
			}},
		{name: "a root default with an unknown field ratchets",
			rootDefault: "        default: {spec: {a: x}, zzz: 1}\n",
			want:        []string{"FieldValueRequired spec.validation.openAPIV3Schema.default.apiVersion", "FieldValueRequired spec.validation.openAPIV3Schema.default.kind"}},
		{name: "the root kind's number default is dropped by coercion",
			root: "          kind: {type: string, default: 5}\n",
			want: []string{"FieldValueForbidden spec.validation.openAPIV3Schema.properties[kind].default", "FieldValueInvalid spec.validation.openAPIV3Schema.properties[kind].default"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := crdWithRoot(tc.rootDefault, tc.root, tc.spec)
			next := crdWithRoot(tc.rootDefault, tc.root, tc.spec+added)
			got := updateErrorKeys(t, next, old)
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.want))
			if !slices.Equal(got, want) {
				t.Errorf("errors\n got %q\nwant %q", got, want)
			}
		})
	}
}
