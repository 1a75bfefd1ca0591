package embedded

import (
	"fmt"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/structural"
)

// NameFunc validates a name (prefix false) or a generateName (prefix true)
// and returns the messages of its violations.
type NameFunc func(name string, prefix bool) []string

// NameIsDNSSubdomain is the name rule of a custom resource's own metadata:
// a lowercase RFC 1123 subdomain. A generateName has a trailing dash masked
// first (as the apiserver does, by replacing the last two characters with
// "a").
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return utilvalidation.IsDNS1123Subdomain(name)
}

// NameIsPathSegment is the name rule of an embedded resource's metadata:
// the name must be usable as a URL path segment (not "." or "..", no "/" or
// "%"); a generateName only must not contain "/" or "%".
func NameIsPathSegment(name string, prefix bool) []string {
	if prefix {
		return content.IsPathSegmentPrefix(name)
	}
	return content.IsPathSegmentName(name)
}

func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// generatedNameSuffix stands for the five random characters the apiserver
// appends to a generateName; any lowercase alphanumeric suffix validates the
// same way.
const generatedNameSuffix = "bcdfg"

// maxGeneratedNameLength is how much of a generateName the apiserver keeps
// before appending the random suffix.
const maxGeneratedNameLength = 63 - len(generatedNameSuffix)

// MetaForCreate returns the metadata of a custom resource as the apiserver
// holds it when it validates a create request, for validating a copy of the
// object: always a map (the server fills in system fields, so metadata is
// never absent), with a name generated from generateName when there is no
// name, the namespace of a cluster-scoped resource cleared and an empty
// namespace of a namespaced resource set to the request's namespace
// ("default"). The schema's value validation sees this metadata (a
// generated name is checked against metadata.name's pattern or enum). meta
// is not changed; the result is a shallow copy.
func MetaForCreate(meta map[string]any, namespaced bool) map[string]any {
	meta, _ = plainMeta(meta)
	e := createEditsOf(meta, namespaced)
	out := make(map[string]any, len(meta)+2)
	for k, v := range meta {
		out[k] = v
	}
	if e.generateName != "" {
		out["name"] = generatedName(e.generateName)
	}
	if e.dropNamespace {
		delete(out, "namespace")
	}
	if e.defaultNamespace {
		out["namespace"] = "default"
	}
	return out
}

// MetaIsAsCreated reports whether MetaForCreate(meta, namespaced) would
// hold exactly what meta holds, so that an object can be validated with its
// own metadata instead of a copy.
func MetaIsAsCreated(meta map[string]any, namespaced bool) bool {
	meta, _ = plainMeta(meta)
	return meta != nil && createEditsOf(meta, namespaced) == createEdits{}
}

// createEdits are the changes a create request makes to metadata before
// validation.
type createEdits struct {
	generateName     string // a name is generated from it
	dropNamespace    bool   // cluster-scoped: the namespace is cleared
	defaultNamespace bool   // namespaced without one: "default"
}

func createEditsOf(meta map[string]any, namespaced bool) createEdits {
	var e createEdits
	if name, _ := meta["name"].(string); name == "" {
		e.generateName, _ = meta["generateName"].(string)
	}
	if namespaced {
		ns, _ := meta["namespace"].(string)
		e.defaultNamespace = ns == ""
	} else {
		_, e.dropNamespace = meta["namespace"]
	}
	return e
}

// generatedName returns a name the apiserver could generate from
// generateName: at most 58 of its bytes followed by five random lowercase
// alphanumerics (here fixed, since any such suffix validates the same way).
func generatedName(generateName string) string {
	if len(generateName) > maxGeneratedNameLength {
		generateName = generateName[:maxGeneratedNameLength]
	}
	return generateName + generatedNameSuffix
}

// ValidateResourceMeta validates the metadata of a custom resource created
// through the apiserver, as a plain JSON map after metadata coercion (nil
// stands for absent metadata). It reproduces what a create request goes
// through: a generateName without name gets a generated name (which is then
// validated, so an invalid generateName is reported at both generateName and
// name); the namespace of a namespaced resource defaults to the request's
// namespace when empty (so only a non-empty namespace is validated), and that
// of a cluster-scoped resource is cleared (so it is never reported). Then
// name, generateName, namespace, generation, labels, annotations,
// ownerReferences, finalizers and managedFields are validated with the
// apiserver's messages, at paths below metadata. meta is not changed.
func ValidateResourceMeta(meta map[string]any, namespaced bool) field.ErrorList {
	meta, err := plainMeta(meta)
	if err != nil {
		return field.ErrorList{jsonvalue.InputError(err, field.NewPath("metadata"))}
	}
	m := readMeta(meta)
	if m.generateName != "" && m.name == "" {
		m.name = generatedName(m.generateName)
	}
	if !namespaced {
		m.namespace = ""
	}
	return m.validate(field.NewPath("metadata"), namespaced && m.namespace != "", NameIsDNSSubdomain)
}

// ValidateObjectMeta validates a metadata map as the apiserver's ObjectMeta
// validation on create does (ValidateObjectMetaAccessor), with the given
// name rule, requiring a namespace when requiresNamespace and forbidding one
// otherwise. Errors are below fldPath (usually a path ending in metadata).
// Fields of the wrong type are ignored: coerce metadata first.
func ValidateObjectMeta(fldPath *field.Path, meta map[string]any, requiresNamespace bool, nameFn NameFunc) field.ErrorList {
	if nameFn == nil {
		nameFn = NameIsDNSSubdomain
	}
	meta, err := plainMeta(meta)
	if err != nil {
		return field.ErrorList{jsonvalue.InputError(err, fldPath)}
	}
	m := readMeta(meta)
	return m.validate(fldPath, requiresNamespace, nameFn)
}

// objectMeta holds the metadata fields validation looks at.
type objectMeta struct {
	name, generateName, namespace string
	generation                    int64
	labels, annotations           map[string]string
	ownerReferences               []ownerReference
	finalizers                    []string
	managedFields                 []managedField
}

type ownerReference struct {
	apiVersion, kind, name, uid string
	controller                  bool
}

type managedField struct {
	manager, operation, fieldsType, subresource string
}

// plainMeta is meta as the metadata functions read it: meta itself when
// it holds only plain JSON values, else a copy holding their JSON forms
// (a map[string]string of labels read as the object it is written as), or
// the error for a value with no JSON form (see jsonvalue.Plain). A nil map
// stays nil.
func plainMeta(meta map[string]any) (map[string]any, error) {
	if meta == nil || jsonvalue.IsPlain(meta, jsonvalue.MaxDepth) {
		return meta, nil
	}
	p, err := jsonvalue.Plain(meta, jsonvalue.MaxDepth)
	if err != nil {
		return meta, err
	}
	return p.(map[string]any), nil
}

// readMeta reads the fields validation looks at from meta, which holds
// plain JSON values (plainMeta).
func readMeta(meta map[string]any) objectMeta {
	var m objectMeta
	m.name = str(meta["name"])
	m.generateName = str(meta["generateName"])
	m.namespace = str(meta["namespace"])
	m.generation, _ = toInt64(meta["generation"])
	m.labels = strMap(meta["labels"])
	m.annotations = strMap(meta["annotations"])
	if l, ok := meta["finalizers"].([]any); ok {
		for _, f := range l {
			m.finalizers = append(m.finalizers, str(f))
		}
	}
	if l, ok := meta["ownerReferences"].([]any); ok {
		for _, x := range l {
			r, _ := x.(map[string]any)
			c, _ := r["controller"].(bool)
			m.ownerReferences = append(m.ownerReferences, ownerReference{
				apiVersion: str(r["apiVersion"]), kind: str(r["kind"]),
				name: str(r["name"]), uid: str(r["uid"]), controller: c,
			})
		}
	}
	if l, ok := meta["managedFields"].([]any); ok {
		for _, x := range l {
			f, _ := x.(map[string]any)
			m.managedFields = append(m.managedFields, managedField{
				manager: str(f["manager"]), operation: str(f["operation"]),
				fieldsType: str(f["fieldsType"]), subresource: str(f["subresource"]),
			})
		}
	}
	return m
}

func str(x any) string {
	s, _ := x.(string)
	return s
}

func strMap(x any) map[string]string {
	m, ok := x.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = str(v)
	}
	return out
}

// toInt64 reads a JSON number that holds an integer.
func toInt64(x any) (int64, bool) {
	switch n := x.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true
		}
	case interface{ Int64() (int64, error) }:
		if i, err := n.Int64(); err == nil {
			return i, true
		}
	}
	return 0, false
}

const totalAnnotationSizeLimit = 256 * (1 << 10)

// validate is ValidateObjectMetaAccessor.
func (m *objectMeta) validate(fldPath *field.Path, requiresNamespace bool, nameFn NameFunc) field.ErrorList {
	var errs field.ErrorList
	if m.generateName != "" {
		for _, msg := range nameFn(m.generateName, true) {
			errs = append(errs, field.Invalid(fldPath.Child("generateName"), m.generateName, msg))
		}
	}
	if m.name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(m.name, false) {
			errs = append(errs, field.Invalid(fldPath.Child("name"), m.name, msg))
		}
	}
	if requiresNamespace {
		if m.namespace == "" {
			errs = append(errs, field.Required(fldPath.Child("namespace"), ""))
		} else {
			for _, msg := range utilvalidation.IsDNS1123Label(m.namespace) {
				errs = append(errs, field.Invalid(fldPath.Child("namespace"), m.namespace, msg))
			}
		}
	} else if m.namespace != "" {
		errs = append(errs, field.Forbidden(fldPath.Child("namespace"), "not allowed on this type"))
	}
	if m.generation < 0 {
		errs = append(errs, field.Invalid(fldPath.Child("generation"), m.generation, "must be greater than or equal to 0"))
	}

	errs = append(errs, m.validateLabelsAnnotationsOwners(fldPath)...)

	finalizers := fldPath.Child("finalizers")
	orphan, foreground := false, false
	for _, f := range m.finalizers {
		for _, msg := range utilvalidation.IsQualifiedName(f) {
			errs = append(errs, field.Invalid(finalizers, f, msg))
		}
		orphan = orphan || f == "orphan"
		foreground = foreground || f == "foregroundDeletion"
	}
	if orphan && foreground {
		errs = append(errs, field.Invalid(finalizers, m.finalizers, "finalizer orphan and foregroundDeletion cannot be both set"))
	}

	errs = append(errs, validateManagedFields(fldPath.Child("managedFields"), m.managedFields)...)
	return errs
}

// validateLabelsAnnotationsOwners validates labels, annotations and owner
// references, as both the create and the update validation do.
func (m *objectMeta) validateLabelsAnnotationsOwners(fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	labels := fldPath.Child("labels")
	for _, k := range sortedKeys(m.labels) {
		for _, msg := range utilvalidation.IsQualifiedName(k) {
			errs = append(errs, field.Invalid(labels, k, msg))
		}
		for _, msg := range utilvalidation.IsValidLabelValue(m.labels[k]) {
			errs = append(errs, field.Invalid(labels, m.labels[k], msg))
		}
	}

	annotations := fldPath.Child("annotations")
	size := 0
	for _, k := range sortedKeys(m.annotations) {
		for _, msg := range utilvalidation.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(annotations, k, msg))
		}
		size += len(k) + len(m.annotations[k])
	}
	if size > totalAnnotationSizeLimit {
		errs = append(errs, field.TooLong(annotations, "", totalAnnotationSizeLimit))
	}

	errs = append(errs, validateOwnerReferences(fldPath.Child("ownerReferences"), m.ownerReferences)...)
	return errs
}

// validateContent is what ValidateObjectMetaAccessorUpdate checks of the
// new metadata's content: labels, annotations, owner references and
// managed fields.
func (m *objectMeta) validateContent(fldPath *field.Path) field.ErrorList {
	errs := m.validateLabelsAnnotationsOwners(fldPath)
	return append(errs, validateManagedFields(fldPath.Child("managedFields"), m.managedFields)...)
}

func validateOwnerReferences(fldPath *field.Path, refs []ownerReference) field.ErrorList {
	var errs field.ErrorList
	firstController := ""
	for i, r := range refs {
		p := fldPath.Index(i)
		gv, err := schema.ParseGroupVersion(r.apiVersion)
		if r.apiVersion == "" {
			errs = append(errs, field.Required(p.Child("apiVersion"), "must not be empty"))
		} else if err != nil || gv.Version == "" {
			errs = append(errs, field.Invalid(p.Child("apiVersion"), r.apiVersion, "must be <group>/<version> or <version>"))
		}
		if r.kind == "" {
			errs = append(errs, field.Required(p.Child("kind"), "must not be empty"))
		}
		if r.name == "" {
			errs = append(errs, field.Required(p.Child("name"), "must not be empty"))
		}
		if r.uid == "" {
			errs = append(errs, field.Required(p.Child("uid"), "must not be empty"))
		}
		if gvk := gv.WithKind(r.kind); gvk.Group == "" && gvk.Version == "v1" && gvk.Kind == "Event" {
			errs = append(errs, field.Invalid(p, ownerRefValue(r), fmt.Sprintf("%s is disallowed from being an owner", gvk)))
		}
		if r.controller {
			name := r.kind + "/" + r.name
			if firstController != "" {
				errs = append(errs, field.Invalid(fldPath, "", fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %v and %v", firstController, name)))
			} else {
				firstController = name
			}
		}
	}
	return errs
}

// ownerRefValue is the value shown for an owner reference in an error.
func ownerRefValue(r ownerReference) map[string]any {
	return map[string]any{"apiVersion": r.apiVersion, "kind": r.kind, "name": r.name, "uid": r.uid}
}

func validateManagedFields(fldPath *field.Path, fields []managedField) field.ErrorList {
	var errs field.ErrorList
	for i, f := range fields {
		p := fldPath.Index(i)
		switch f.operation {
		case "":
			errs = append(errs, field.Required(p.Child("operation"), "must not be empty"))
		case "Apply", "Update":
		default:
			errs = append(errs, field.NotSupported(p.Child("operation"), f.operation, []string{"Apply", "Update"}))
		}
		if f.fieldsType != "" && f.fieldsType != "FieldsV1" {
			errs = append(errs, field.Invalid(p.Child("fieldsType"), f.fieldsType, "must be `FieldsV1`"))
		}
		if len(f.manager) > 128 {
			errs = append(errs, field.TooLong(p.Child("manager"), "", 128))
		}
		for j, r := range f.manager {
			if !unicode.IsPrint(r) {
				errs = append(errs, field.Invalid(p.Child("manager"), f.manager, fmt.Sprintf("invalid character %#U (at position %d)", r, j)))
			}
		}
		if len(f.subresource) > 256 {
			errs = append(errs, field.TooLong(p.Child("subresource"), "", 256))
		}
	}
	return errs
}

// Validate validates every x-kubernetes-embedded-resource below obj (obj
// included) whose schema is s, as the apiserver does on create: apiVersion
// and kind are required, must be non-empty strings, apiVersion a valid
// group/version, kind (lowercased) a DNS-1035 label, and metadata valid
// ObjectMeta with path-segment names (a missing name is not an error; a
// namespace is validated when present). With isResourceRoot the node s
// itself is treated as an embedded resource even without the extension (the
// apiserver does so when checking default values at a resource root).
// Errors are at paths below fldPath. obj is not changed.
func Validate(fldPath *field.Path, obj any, s *structural.Schema, isResourceRoot bool) field.ErrorList {
	if s == nil {
		if !isResourceRoot {
			return nil
		}
		s = &structural.Schema{}
	}
	return validateEmbedded(fldPath, obj, s, isResourceRoot)
}

func validateEmbedded(fldPath *field.Path, x any, s *structural.Schema, forceEmbedded bool) field.ErrorList {
	if s == nil || (!forceEmbedded && !s.HasEmbeddedResource()) {
		return nil
	}
	var errs field.ErrorList
	switch x := x.(type) {
	case map[string]any:
		if x != nil { // a nil map is null
			errs = validateEmbeddedObject(fldPath, x, s, forceEmbedded)
		}
	case []any:
		for i, v := range x {
			errs = append(errs, validateEmbedded(fldPath.Index(i), v, s.Items, false)...)
		}
	case nil, string, bool, int64, float64:
	default:
		// A Go value that is not plain JSON: its JSON form.
		n, ok, err := jsonvalue.Container(x)
		if err != nil {
			return field.ErrorList{jsonvalue.InputError(err, fldPath)}
		}
		if ok {
			return validateEmbedded(fldPath, n, s, forceEmbedded)
		}
	}
	return errs
}

// validateEmbeddedObject is validateEmbedded for an object x.
func validateEmbeddedObject(fldPath *field.Path, x map[string]any, s *structural.Schema, forceEmbedded bool) field.ErrorList {
	var errs field.ErrorList
	if s.EmbeddedResource || forceEmbedded {
		errs = append(errs, validateEmbeddedResource(fldPath, x)...)
	}
	for _, k := range sortedKeys(x) {
		if c, ok := s.Properties[k]; ok {
			errs = append(errs, validateEmbedded(fldPath.Child(k), x[k], c, false)...)
		} else if s.AdditionalProperties != nil {
			errs = append(errs, validateEmbedded(fldPath.Key(k), x[k], s.AdditionalProperties.Schema, false)...)
		}
	}
	return errs
}

// plainTypeMeta is x with its apiVersion, kind and metadata as validation
// reads them: x itself when they are plain JSON values, else a shallow
// copy with their JSON forms, or the error for one with none.
func plainTypeMeta(fldPath *field.Path, x map[string]any) (map[string]any, *field.Error) {
	keys := [...]string{"apiVersion", "kind", "metadata"}
	plain := true
	for _, k := range keys {
		plain = plain && jsonvalue.IsPlain(x[k], jsonvalue.MaxDepth)
	}
	if plain {
		return x, nil
	}
	out := make(map[string]any, len(x))
	for k, v := range x {
		out[k] = v
	}
	for _, k := range keys {
		if v, ok := x[k]; ok {
			p, err := jsonvalue.Plain(v, jsonvalue.MaxDepth)
			if err != nil {
				return nil, jsonvalue.InputError(err, fldPath.Child(k))
			}
			out[k] = p
		}
	}
	return out, nil
}

// validateEmbeddedResource validates the TypeMeta and ObjectMeta of one
// embedded resource x (at fldPath), as the apiserver does on create.
func validateEmbeddedResource(fldPath *field.Path, x map[string]any) field.ErrorList {
	x, err := plainTypeMeta(fldPath, x)
	if err != nil {
		return field.ErrorList{err}
	}
	var errs field.ErrorList
	if _, ok := x["apiVersion"]; !ok {
		errs = append(errs, field.Required(fldPath.Child("apiVersion"), ""))
	}
	if _, ok := x["kind"]; !ok {
		errs = append(errs, field.Required(fldPath.Child("kind"), ""))
	}
	if v, ok := x["apiVersion"]; ok {
		p := fldPath.Child("apiVersion")
		if s, isStr := v.(string); !isStr {
			errs = append(errs, field.Invalid(p, v, "must be a string"))
		} else if s == "" {
			errs = append(errs, field.Invalid(p, s, "must not be empty"))
		} else if _, err := schema.ParseGroupVersion(s); err != nil {
			errs = append(errs, field.Invalid(p, s, err.Error()))
		}
	}
	if v, ok := x["kind"]; ok {
		p := fldPath.Child("kind")
		if s, isStr := v.(string); !isStr {
			errs = append(errs, field.Invalid(p, v, "must be a string"))
		} else if s == "" {
			errs = append(errs, field.Invalid(p, s, "must not be empty"))
		} else if msgs := utilvalidation.IsDNS1035Label(strings.ToLower(s)); len(msgs) > 0 {
			errs = append(errs, field.Invalid(p, s, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
		}
	}
	if v, ok := x["metadata"]; ok {
		p := fldPath.Child("metadata")
		meta, isMap := v.(map[string]any)
		if !isMap && v != nil {
			errs = append(errs, field.Invalid(p, v, fmt.Sprintf("json: cannot unmarshal %s into Go value of type v1.ObjectMeta", jsonvalue.DecodeWords.Of(v))))
			return errs
		}
		m := readMeta(meta)
		if m.name == "" {
			m.name = "fakename"
		}
		errs = append(errs, m.validate(p, m.namespace != "", NameIsPathSegment)...)
	}
	return errs
}
