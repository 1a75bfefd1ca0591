// Package serving computes what the apiserver serves about a
// CustomResourceDefinition besides its objects: the OpenAPI v3 and v2
// definitions it publishes for every served version (OpenAPI), the table `kubectl get` prints (Table) and the scale
// subresource (Scale).
//
// The package stands on the light chain (schema, structural): it does not
// link CEL. The root package's CRD methods are the usual front door.
//
// Objects (Scale, Table.Row) are never changed, and are read as the JSON
// that encoding/json writes for them, the rule of every package of this
// module (package prune says it in full): labels as a map[string]string,
// replicas as an int32 or a []any(nil) read as the JSON they are written
// as; a value with no JSON form is one FieldValueInvalid error at its path
// naming its Go type.
package serving

import (
	"strings"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// Resource names what a version's definitions are published for.
type Resource struct {
	// Group, Version, Kind, ListKind and Plural are the CRD's spec.group,
	// the served version, spec.names.kind, listKind (defaulted) and plural.
	Group, Version, Kind, ListKind, Plural string
	// SelectableFields are the version's selectableFields JSONPaths.
	SelectableFields []string
	// PreserveUnknownFields is the CRD's spec.preserveUnknownFields.
	PreserveUnknownFields bool
	// StatusSubresource is whether the version has the status
	// subresource, which makes the apiserver drop .status on create
	// (JSONSchema only).
	StatusSubresource bool
}

// modelName is the name a definition is published under: the group's
// dot-separated parts reversed, then version and kind
// (stable.example.com, v1, CronTab → com.example.stable.v1.CronTab).
func modelName(group, version, kind string) string {
	parts := strings.Split(group, ".")
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".") + "." + version + "." + kind
}

// OpenAPI returns the definitions the apiserver publishes for the kind and
// its List kind, keyed by model name (the group's dot-separated parts
// reversed, then version and kind: com.example.stable.v1.CronTab), as JSON
// values: v3 as in /openapi/v3/apis/GROUP/VERSION (components.schemas), v2
// as in /openapi/v2 (definitions), which has no defaults, no junctors, no
// types or properties of nullable fields and no subtrees below
// x-kubernetes-preserve-unknown-fields. s is the version's structural
// schema, nil when the version has none. The results share nothing with s.
func OpenAPI(r Resource, s *structural.Schema) (v3, v2 map[string]any) {
	var p *schema.Props
	if s != nil {
		p = s.Source
	}
	return definitions(r, p, false), definitions(r, p, true)
}

// The texts the apiserver's builder takes from the Kubernetes types.
const (
	apiVersionDoc         = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDoc               = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	embeddedAPIVersionDoc = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	embeddedKindDoc       = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	objectMetaDoc         = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	listMetaDoc           = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	objectMetaModel       = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	listMetaModel         = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
)

func definitions(r Resource, root *schema.Props, v2 bool) map[string]any {
	return map[string]any{
		modelName(r.Group, r.Version, r.Kind):     kindSchema(r, root, v2),
		modelName(r.Group, r.Version, r.ListKind): listSchema(r, v2),
	}
}

// ref is a reference to a shared definition with a description beside it:
// v3 wraps the $ref into allOf, as the apiserver's v3 builder does for a
// $ref with siblings.
func ref(model, description string, v2 bool) map[string]any {
	if v2 {
		return map[string]any{"$ref": "#/definitions/" + model, "description": description}
	}
	return map[string]any{"allOf": []any{map[string]any{"$ref": "#/components/schemas/" + model}}, "description": description}
}

func stringProperty(description string) map[string]any {
	return map[string]any{"description": description, "type": "string"}
}

func gvk(r Resource, kind string) []any {
	return []any{map[string]any{"group": r.Group, "version": r.Version, "kind": kind}}
}

// setSelectableFields adds x-kubernetes-selectable-fields when the version
// has selectable fields.
func setSelectableFields(out map[string]any, r Resource) {
	if len(r.SelectableFields) == 0 {
		return
	}
	fields := make([]any, len(r.SelectableFields))
	for i, p := range r.SelectableFields {
		fields[i] = map[string]any{"fieldPath": strings.TrimPrefix(p, ".")}
	}
	out["x-kubernetes-selectable-fields"] = fields
}

// kindSchema is the kind's definition: the version's schema with the
// TypeMeta and ObjectMeta properties at the root.
func kindSchema(r Resource, root *schema.Props, v2 bool) map[string]any {
	var out map[string]any
	if root == nil || v2 && (isTrue(root.XPreserveUnknownFields) || r.PreserveUnknownFields) {
		out = map[string]any{"type": "object"}
	} else {
		out = node(root, v2)
		// An embedded-resource root already has the three properties,
		// with the embedded resource's texts, which the apiserver sets
		// after the root's.
		if !root.XEmbeddedResource {
			props := properties(out)
			props["metadata"] = ref(objectMetaModel, objectMetaDoc, v2)
			props["apiVersion"] = stringProperty(apiVersionDoc)
			props["kind"] = stringProperty(kindDoc)
		}
	}
	out["x-kubernetes-group-version-kind"] = gvk(r, r.Kind)
	setSelectableFields(out, r)
	return out
}

// listSchema is the List kind's definition.
func listSchema(r Resource, v2 bool) map[string]any {
	item := "#/components/schemas/"
	if v2 {
		item = "#/definitions/"
	}
	item += modelName(r.Group, r.Version, r.Kind)
	out := map[string]any{
		"type":        "object",
		"description": r.ListKind + " is a list of " + r.Kind,
		"required":    []any{"items"},
		"properties": map[string]any{
			"items": map[string]any{
				"type":        "array",
				"items":       map[string]any{"$ref": item},
				"description": "List of " + r.Plural + ". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
			},
			"metadata":   ref(listMetaModel, listMetaDoc, v2),
			"apiVersion": stringProperty(apiVersionDoc),
			"kind":       stringProperty(kindDoc),
		},
		"x-kubernetes-group-version-kind": gvk(r, r.ListKind),
	}
	setSelectableFields(out, r)
	return out
}

// properties returns out's properties, adding an empty map when there is
// none.
func properties(out map[string]any) map[string]any {
	if m, ok := out["properties"].(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	out["properties"] = m
	return m
}

func isTrue(b *bool) bool { return b != nil && *b }
