package oracle

import (
	"context"
	"sort"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"
)

// objectVerb is one of the object verbs.
type objectVerb string

// The object verbs.
const (
	verbPrune   objectVerb = "prune"
	verbDefault objectVerb = "default"
	verbApply   objectVerb = "apply"
	// verbConvert reads stored objects at the --to version.
	verbConvert objectVerb = "convert"
)

// objectResult is the outcome of one verb on one object.
type objectResult struct {
	// Doc is the input document.
	Doc Document
	// Object is the resulting object, nil when the object could not be
	// routed or was rejected while decoding.
	Object map[string]interface{}
	// Pruned are the unknown field paths dropped, sorted and de-duplicated.
	Pruned []string
	// Errors are the errors, sorted.
	Errors field.ErrorList
	// Operation is CREATE or UPDATE with --old, "" otherwise.
	Operation string
}

// coerceOptions select the steps of the apiserver's unstructuredSchemaCoercer.
type coerceOptions struct {
	pruneUnknown        bool
	pruneNulls          bool
	dropInvalidMetadata bool
	// repairGeneration sets a zero generation to 1 (the storage decoder).
	repairGeneration bool
}

// coerce is the apiserver's unstructuredSchemaCoercer.apply
// (customresource_handler.go) on a decoded object: ObjectMeta round trip,
// pruning, removal of non-nullable nulls, coercion of embedded resources.
// It returns the unknown field paths, or the errors rejecting the object
// with the paths of the root metadata and pruning, which precede a
// malformed embedded resource's error (not those of the embedded
// metadata coerced before it: the apiserver walks maps in random order).
//
// The apiserver rejects the object with the first malformed embedded
// resource it meets, walking maps in random order; coerce returns every
// error it may meet first.
func coerce(u map[string]interface{}, s *structuralschema.Structural, gk schema.GroupKind, preserveUnknownFields bool, opts coerceOptions) ([]string, field.ErrorList) {
	kind, foundKind, err := unstructured.NestedString(u, "kind")
	if err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("kind"), u["kind"], err.Error())}
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u, "apiVersion")
	if err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("apiVersion"), u["apiVersion"], err.Error())}
	}
	objectMeta, foundObjectMeta, paths, err := schemaobjectmeta.GetObjectMetaWithOptions(u, schemaobjectmeta.ObjectMetaOptions{
		DropMalformedFields:     opts.dropInvalidMetadata,
		ReturnUnknownFieldPaths: true,
	})
	if err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), u["metadata"], err.Error())}
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("apiVersion"), apiVersion, err.Error())}
	}
	if gv.Group == gk.Group && kind == gk.Kind {
		if !preserveUnknownFields {
			if opts.pruneUnknown {
				paths = append(paths, structuralpruning.PruneWithOptions(u, s, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
			}
			if opts.pruneNulls {
				structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u, s)
			}
		}
		ferr, p := schemaobjectmeta.CoerceWithOptions(nil, u, s, false, schemaobjectmeta.CoerceOptions{
			DropInvalidFields:       opts.dropInvalidMetadata,
			ReturnUnknownFieldPaths: true,
		})
		if ferr != nil {
			if errs := coerceErrors(nil, u, s); len(errs) > 0 {
				return paths, errs
			}
			return paths, field.ErrorList{ferr}
		}
		paths = append(paths, p...)
		if opts.repairGeneration && objectMeta.Generation == 0 {
			objectMeta.Generation = 1
		}
	}
	if foundKind {
		u["kind"] = kind
	}
	if foundAPIVersion {
		u["apiVersion"] = apiVersion
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u, objectMeta); err != nil {
			return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), u["metadata"], err.Error())}
		}
		if objectMeta != nil && objectMeta.CreationTimestamp.IsZero() {
			unstructured.RemoveNestedField(u, "metadata", "creationTimestamp")
		}
	}
	return paths, nil
}

// coerceErrors returns the errors schemaobjectmeta.Coerce (without
// dropping invalid fields) may return first for x: the errors of every
// malformed embedded resource reachable through maps (walked in random
// order by the apiserver), and, in an array, those of the first item with
// errors only (arrays are walked in order).
func coerceErrors(pth *field.Path, x interface{}, s *structuralschema.Structural) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	switch x := x.(type) {
	case map[string]interface{}:
		for k, v := range x {
			if s.XEmbeddedResource {
				switch k {
				case "apiVersion", "kind":
					if _, ok := v.(string); !ok {
						errs = append(errs, field.Invalid(pth.Child(k), v, "must be a string"))
						continue
					}
				case "metadata":
					if _, _, _, err := schemaobjectmeta.GetObjectMetaWithOptions(x, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true, ParentPath: pth}); err != nil {
						errs = append(errs, field.Invalid(pth.Child("metadata"), v, err.Error()))
						continue
					}
				}
			}
			if prop, ok := s.Properties[k]; ok {
				errs = append(errs, coerceErrors(pth.Child(k), v, &prop)...)
			} else if s.AdditionalProperties != nil {
				errs = append(errs, coerceErrors(pth.Key(k), v, s.AdditionalProperties.Structural)...)
			}
		}
	case []interface{}:
		for i, v := range x {
			if errs := coerceErrors(pth.Index(i), v, s.Items); len(errs) > 0 {
				return errs
			}
		}
	}
	return errs
}

// process runs a verb on one object; with stored objects (apply --old) an
// object matching one is an update of it.
func (r *router) process(ctx context.Context, v objectVerb, doc Document, stored storedObjects, statusOnly bool) objectResult {
	if v == verbConvert {
		return r.convert(doc)
	}
	res := objectResult{Doc: doc}
	if stored != nil {
		res.Operation = "CREATE"
	}
	sv, gvk, ferr := r.route(doc.Object)
	if ferr == nil && sv.err != nil {
		ferr = field.InternalError(nil, sv.err)
	}
	if ferr != nil {
		res.Errors = field.ErrorList{ferr}
		return res
	}
	if stored != nil {
		old, ok := stored[keyOf(doc.Object, sv.namespaced)]
		switch {
		case ok:
			return r.update(ctx, sv, gvk, doc, old, statusOnly)
		case statusOnly && sv.status == nil:
			res.Operation = "UPDATE"
			res.Errors = field.ErrorList{notFound("status", "the version has no status subresource")}
			return res
		case statusOnly:
			res.Operation = "UPDATE"
			res.Errors = field.ErrorList{notFound("metadata.name", "no stored object to update")}
			return res
		}
	}
	u := runtime.DeepCopyJSON(doc.Object)
	s := sv.structural
	preserve := sv.crd.V1.Spec.PreserveUnknownFields
	gk := gvk.GroupKind()

	switch v {
	case verbPrune:
		paths, errs := coerce(u, s, gk, preserve, coerceOptions{pruneUnknown: true, dropInvalidMetadata: true})
		if len(errs) > 0 {
			res.Errors = sortedErrors(errs)
			return res
		}
		res.Pruned = paths
	case verbDefault:
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u, s)
		structuraldefaulting.Default(u, s)
	case verbApply:
		paths, errs := coerce(u, s, gk, preserve, coerceOptions{pruneUnknown: true, pruneNulls: true})
		if len(errs) > 0 {
			res.Errors = sortedErrors(errs)
			return res
		}
		res.Pruned = paths
		structuraldefaulting.Default(u, s)
		st, err := sv.validator()
		if err != nil {
			res.Errors = field.ErrorList{field.InternalError(nil, err)}
			return res
		}
		obj := beforeCreate(u, sv.namespaced)
		st.PrepareForCreate(ctx, obj)
		if _, ok := obj.Object["status"]; !ok {
			delete(u, "status")
		}
		res.Errors = st.Validate(ctx, obj)
		readBack(u, s, gk, preserve)
	}
	res.Object = u
	res.Pruned = sortedUnique(res.Pruned)
	res.Errors = sortedErrors(res.Errors)
	return res
}

// beforeCreate returns a copy of a decoded create request as the registry
// validates it (rest.BeforeCreate and the generic store): the namespace is
// the request's ("default", kubectl's default, when the object names none)
// or cleared for a cluster-scoped resource, and a generateName yields a
// name. The server-populated fields are not part of the command's output,
// so the copy is used for validation only.
func beforeCreate(u map[string]interface{}, namespaced bool) *unstructured.Unstructured {
	obj := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(u)}
	switch {
	case !namespaced:
		obj.SetNamespace("")
	case obj.GetNamespace() == "":
		obj.SetNamespace(metav1.NamespaceDefault)
	}
	if obj.GetName() == "" && obj.GetGenerateName() != "" {
		obj.SetName(names.SimpleNameGenerator.GenerateName(obj.GetGenerateName()))
	}
	return obj
}

// readBack is what the response shows of a stored object: the object read
// back from storage through the storage codec (the schema coercer with
// malformed metadata dropped, then the defaulter). Server-populated
// fields are not part of the output, so they are not added.
func readBack(u map[string]interface{}, s *structuralschema.Structural, gk schema.GroupKind, preserveUnknownFields bool) {
	if _, errs := coerce(u, s, gk, preserveUnknownFields, coerceOptions{pruneUnknown: true, dropInvalidMetadata: true}); len(errs) > 0 {
		return
	}
	structuraldefaulting.Default(u, s)
}

// sortedUnique sorts and de-duplicates strings; never nil.
func sortedUnique(in []string) []string {
	out := make([]string, 0, len(in))
	out = append(out, in...)
	sort.Strings(out)
	j := 0
	for i, s := range out {
		if i > 0 && s == out[j-1] {
			continue
		}
		out[j] = s
		j++
	}
	return out[:j]
}

// sortedErrors returns the errors sorted by field, type and detail.
func sortedErrors(in field.ErrorList) field.ErrorList {
	out := make(field.ErrorList, 0, len(in))
	out = append(out, in...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.Detail < b.Detail
	})
	return out
}
