package conversion

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// totalAnnotationSizeLimit is the apiserver's limit on the size of all
// annotations of an object (256 KiB).
const totalAnnotationSizeLimit = 256 * 1024

// checker checks a conversion webhook's converted objects as the
// apiserver's webhook converter does, and restores their metadata.
type checker struct {
	// gvk is the apiserver's rendering of the first sent object's group,
	// version and kind ("stable.example.com/v1beta1, Kind=CronTab").
	gvk string
	// desired is the requested apiVersion.
	desired string
	// list is set when several objects were sent (a list request): the
	// messages then name indices.
	list bool
}

// gvkString renders an object's apiVersion and kind as the apiserver's
// GroupVersionKind.String does.
func gvkString(obj map[string]any) string {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return groupVersion(av) + ", Kind=" + kind
}

// groupVersion renders an apiVersion as a parsed GroupVersion prints it:
// "" when it does not parse (more than one "/").
func groupVersion(av string) string {
	switch strings.Count(av, "/") {
	case 0:
		return av
	case 1:
		if strings.HasPrefix(av, "/") {
			return av[1:]
		}
		return av
	}
	return ""
}

// failed is the error of a conversion webhook answer at field path at.
func failed(at string, format string, args ...any) *field.Error {
	return &field.Error{Type: field.ErrorTypeInternal, Field: at, BadValue: field.OmitValueType{}, Detail: fmt.Sprintf(format, args...)}
}

// object checks the i-th converted object (raw, as the webhook returned
// it) against original, the object sent, and returns the object the
// apiserver continues with: converted with original's metadata, but the
// converted labels and annotations.
func (c *checker) object(i int, original map[string]any, raw any) (map[string]any, *field.Error) {
	at := fmt.Sprintf("response.convertedObjects[%d]", i)
	converted, err := decodeObject(raw)
	if err != nil {
		if !c.list {
			return nil, failed(at, "%v", err)
		}
		return nil, failed(at, "conversion webhook for %s returned invalid converted object at index %d: %v", c.gvk, i, err)
	}
	invalid := "conversion webhook for " + c.gvk + " returned invalid object at index 0: "
	if c.list {
		invalid = fmt.Sprintf("conversion webhook for %s returned invalid converted object at index %d: ", c.gvk, i)
	}
	av, _ := converted["apiVersion"].(string)
	if got := groupVersion(av); got != c.desired {
		return nil, failed(at+".apiVersion", "%sinvalid groupVersion (expected %s, received %s)", invalid, c.desired, got)
	}
	if want, got := str(original["kind"]), str(converted["kind"]); want != got {
		return nil, failed(at+".kind", "%sinvalid kind (expected %s, received %s)", invalid, want, got)
	}
	if err := sameIdentity(at, original, converted); err != nil {
		if c.list {
			err.Detail = invalid + err.Detail
		} else {
			err.Detail = "conversion webhook for " + c.gvk + " returned invalid object: " + err.Detail
		}
		return nil, err
	}
	if err := restoreMeta(at, original, converted); err != nil {
		if c.list {
			err.Detail = fmt.Sprintf("conversion webhook for %s returned invalid metadata in object at index %d: %s", c.gvk, i, err.Detail)
		} else {
			err.Detail = "conversion webhook for " + c.gvk + " returned invalid metadata: " + err.Detail
		}
		return nil, err
	}
	return converted, nil
}

// decodeObject is what the apiserver's unstructured decoding makes of a
// converted object: a JSON object with a non-empty string kind.
func decodeObject(raw any) (map[string]any, error) {
	// A Func's answer is read as its JSON (see the package doc), into a
	// copy that shares nothing with it.
	raw, err := jsonvalue.Plain(raw, jsonvalue.MaxDepth)
	if err != nil {
		return nil, err
	}
	m, ok := raw.(map[string]any)
	if raw == nil {
		// A null RawExtension holds no bytes.
		return nil, fmt.Errorf("unexpected end of JSON input")
	}
	if !ok {
		return nil, fmt.Errorf("json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonvalue.DecodeWords.Of(raw))
	}
	if str(m["kind"]) == "" {
		b, _ := json.Marshal(m)
		//lint:ignore ST1005 the apiserver's exact text (apimachinery's missing-kind error)
		return nil, fmt.Errorf("Object 'Kind' is missing in '%s'", b)
	}
	return m, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// metaString is the string at metadata.k of obj, "" when absent or not a
// string (the apiserver's unstructured accessors).
func metaString(obj map[string]any, k string) string {
	meta, _ := obj["metadata"].(map[string]any)
	return str(meta[k])
}

// sameIdentity is the apiserver's validateConvertedObject: kind, name,
// namespace and uid unchanged.
func sameIdentity(at string, original, converted map[string]any) *field.Error {
	if want, got := str(original["kind"]), str(converted["kind"]); want != got {
		return failed(at+".kind", "must have the same kind: %v != %v", want, got)
	}
	for _, f := range [...]struct{ key, name string }{{"name", "name"}, {"namespace", "namespace"}, {"uid", "UID"}} {
		if want, got := metaString(original, f.key), metaString(converted, f.key); want != got {
			return failed(at+".metadata."+f.key, "must have the same %s: %v != %v", f.name, want, got)
		}
	}
	return nil
}

// restoreMeta is the apiserver's restoreObjectMeta: converted gets a copy
// of original's metadata with converted's own labels and annotations
// (removed when converted has none), validated when they changed.
func restoreMeta(at string, original, converted map[string]any) *field.Error {
	v, found := converted["metadata"]
	if !found {
		return failed(at+".metadata", "missing metadata in converted object")
	}
	answer, ok := v.(map[string]any)
	if !ok {
		return failed(at+".metadata", "invalid metadata of type %s in converted object", goType(v))
	}
	restored, _ := jsonvalue.DeepCopy(original["metadata"]).(map[string]any)
	if restored == nil {
		restored = map[string]any{}
	}
	converted["metadata"] = restored
	for _, fld := range [...]string{"labels", "annotations"} {
		if err := restoreStrings(at+".metadata."+fld, fld, restored, answer[fld]); err != nil {
			return err
		}
	}
	return nil
}

// restoreStrings puts the answer's labels or annotations (fld) into the
// restored metadata.
func restoreStrings(at, fld string, restored map[string]any, v any) *field.Error {
	if v == nil {
		delete(restored, fld)
		return nil
	}
	answer, ok := v.(map[string]any)
	if !ok {
		return failed(at, "invalid metadata.%s of type %s in converted object", fld, goType(v))
	}
	orig, ok := restored[fld].(map[string]any)
	if !ok && restored[fld] != nil {
		return failed(at, "invalid metadata.%s of type %s in original object", fld, goType(restored[fld]))
	}
	changed := len(orig) != len(answer)
	strs := make(map[string]string, len(answer))
	for _, k := range slices.Sorted(maps.Keys(answer)) {
		s, ok := answer[k].(string)
		if !ok {
			return failed(at, "metadata.%s[%s] must be a string, but is %s in converted object", fld, k, goType(answer[k]))
		}
		if o, ok := orig[k].(string); !ok || o != s {
			changed = true
		}
		strs[k] = s
	}
	if changed {
		if errs := validateStrings(fld, strs); len(errs) > 0 {
			return failed(at, "%s", errs.ToAggregate().Error())
		}
	}
	restored[fld] = answer
	return nil
}

// goType names a JSON value's Go type as %T prints it.
func goType(v any) string {
	if v == nil {
		return "<nil>"
	}
	return reflect.TypeOf(v).String()
}

// validateStrings validates labels (ValidateLabels) or annotations
// (ValidateAnnotations, under the apiserver's path metadata.annotation).
func validateStrings(fld string, m map[string]string) field.ErrorList {
	var errs field.ErrorList
	keys := slices.Sorted(maps.Keys(m))
	if fld == "labels" {
		p := field.NewPath("metadata", "labels")
		for _, k := range keys {
			for _, msg := range utilvalidation.IsQualifiedName(k) {
				errs = append(errs, field.Invalid(p, k, msg))
			}
			for _, msg := range utilvalidation.IsValidLabelValue(m[k]) {
				errs = append(errs, field.Invalid(p, m[k], msg))
			}
		}
		return errs
	}
	p := field.NewPath("metadata", "annotation")
	size := 0
	for _, k := range keys {
		for _, msg := range utilvalidation.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.Invalid(p, k, msg))
		}
		size += len(k) + len(m[k])
	}
	if size > totalAnnotationSizeLimit {
		errs = append(errs, field.TooLong(p, "", totalAnnotationSizeLimit))
	}
	return errs
}
