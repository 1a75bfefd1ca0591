package embedded

import (
	"encoding/json"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objpath"
)

// This file reproduces what a round trip through the ObjectMeta Go type
// (k8s.io/apimachinery/pkg/apis/meta/v1) makes of a metadata value: decoding
// it case-sensitively as JSON into the struct, then converting the struct
// back to a JSON value. It does so from a table of ObjectMeta's fields and
// JSON types, without importing the type.

// valueType is the Go type a JSON value is decoded into.
type valueType uint8

const (
	tString     valueType = iota // string and named string types
	tInt64                       // int64
	tBool                        // bool
	tTime                        // metav1.Time: RFC 3339 string or null
	tStringMap                   // map[string]string
	tStringList                  // []string
	tStructList                  // a list of one of the structs below
	tRaw                         // metav1.FieldsV1: any JSON value, kept as is
)

// fieldSpec is one JSON field of a struct.
type fieldSpec struct {
	name   string
	typ    valueType
	goType string // the type as encoding/json names it in errors
	ptr    bool   // a pointer field: null sets it unset, any value sets it
	always bool   // no omitempty: written even when empty
	elem   *structSpec
	// elemType names the list's element type in errors.
	elemType string
}

// structSpec is a struct type: its name in errors and its fields.
type structSpec struct {
	name   string
	fields map[string]*fieldSpec
	// always counts the fields written even when absent.
	always int
}

func newStruct(name string, fields ...*fieldSpec) *structSpec {
	s := &structSpec{name: name, fields: make(map[string]*fieldSpec, len(fields))}
	for _, f := range fields {
		s.fields[f.name] = f
		if f.always {
			s.always++
		}
	}
	return s
}

// The tables are built once and only read.
var (
	ownerReferenceSpec = newStruct("OwnerReference",
		&fieldSpec{name: "apiVersion", typ: tString, goType: "string", always: true},
		&fieldSpec{name: "kind", typ: tString, goType: "string", always: true},
		&fieldSpec{name: "name", typ: tString, goType: "string", always: true},
		&fieldSpec{name: "uid", typ: tString, goType: "types.UID", always: true},
		&fieldSpec{name: "controller", typ: tBool, goType: "bool", ptr: true},
		&fieldSpec{name: "blockOwnerDeletion", typ: tBool, goType: "bool", ptr: true},
	)
	managedFieldsEntrySpec = newStruct("ManagedFieldsEntry",
		&fieldSpec{name: "manager", typ: tString, goType: "string"},
		&fieldSpec{name: "operation", typ: tString, goType: "v1.ManagedFieldsOperationType"},
		&fieldSpec{name: "apiVersion", typ: tString, goType: "string"},
		&fieldSpec{name: "time", typ: tTime, goType: "v1.Time", ptr: true},
		&fieldSpec{name: "fieldsType", typ: tString, goType: "string"},
		&fieldSpec{name: "fieldsV1", typ: tRaw, goType: "v1.FieldsV1", ptr: true},
		&fieldSpec{name: "subresource", typ: tString, goType: "string"},
	)
	objectMetaSpec = newStruct("ObjectMeta",
		&fieldSpec{name: "name", typ: tString, goType: "string"},
		&fieldSpec{name: "generateName", typ: tString, goType: "string"},
		&fieldSpec{name: "namespace", typ: tString, goType: "string"},
		&fieldSpec{name: "selfLink", typ: tString, goType: "string"},
		&fieldSpec{name: "uid", typ: tString, goType: "types.UID"},
		&fieldSpec{name: "resourceVersion", typ: tString, goType: "string"},
		&fieldSpec{name: "generation", typ: tInt64, goType: "int64"},
		// creationTimestamp is omitted when zero (omitzero).
		&fieldSpec{name: "creationTimestamp", typ: tTime, goType: "v1.Time"},
		&fieldSpec{name: "deletionTimestamp", typ: tTime, goType: "v1.Time", ptr: true},
		&fieldSpec{name: "deletionGracePeriodSeconds", typ: tInt64, goType: "int64", ptr: true},
		&fieldSpec{name: "labels", typ: tStringMap, goType: "map[string]string"},
		&fieldSpec{name: "annotations", typ: tStringMap, goType: "map[string]string"},
		&fieldSpec{name: "ownerReferences", typ: tStructList, goType: "[]v1.OwnerReference", elem: ownerReferenceSpec, elemType: "v1.OwnerReference"},
		&fieldSpec{name: "finalizers", typ: tStringList, goType: "[]string"},
		&fieldSpec{name: "managedFields", typ: tStructList, goType: "[]v1.ManagedFieldsEntry", elem: managedFieldsEntrySpec, elemType: "v1.ManagedFieldsEntry"},
	)
)

// typeError is encoding/json's UnmarshalTypeError, as its message reads.
type typeError struct {
	value  string // "string", "number", "number 1.5", "bool", "object", "array"
	goType string
	strct  string // the innermost struct being decoded, "" at the top
	field  string // the dotted field names from the top
}

func (e *typeError) Error() string {
	if e.strct != "" || e.field != "" {
		return "json: cannot unmarshal " + e.value + " into Go struct field " + e.strct + "." + e.field + " of type " + e.goType
	}
	return "json: cannot unmarshal " + e.value + " into Go value of type " + e.goType
}

// numberText is the JSON text of a number as encoding/json writes it.
func numberText(v any) (string, bool) {
	switch n := v.(type) {
	case int64:
		return strconv.FormatInt(n, 10), true
	case int:
		return strconv.Itoa(n), true
	case int32:
		return strconv.FormatInt(int64(n), 10), true
	case uint64:
		return strconv.FormatUint(n, 10), true
	case json.Number:
		return n.String(), true
	case float32:
		return formatFloat(float64(n), 32), true
	case float64:
		return formatFloat(n, 64), true
	}
	return "", false
}

func formatFloat(f float64, bits int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, bits)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, bits)
	if format == 'e' {
		// e-09 is written e-9.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b)
}

// metaDecoder decodes one metadata value. soft is the first type error
// (decoding goes on after it, as encoding/json's does); hard is an error
// that stops decoding (a time that does not parse).
type metaDecoder struct {
	soft, hard error
	strct      string
	fields     []string
	// track asks for the unknown fields' paths, relative to metadata.
	track   bool
	stack   []objpath.Element
	unknown []objpath.Path
}

func (d *metaDecoder) failed() bool { return d.soft != nil || d.hard != nil }

func (d *metaDecoder) typeErr(value, goType string) {
	if d.soft != nil || d.hard != nil {
		return
	}
	e := &typeError{value: value, goType: goType, strct: d.strct}
	for i, f := range d.fields {
		if i > 0 {
			e.field += "."
		}
		e.field += f
	}
	d.soft = e
}

func (d *metaDecoder) hardErr(err error) {
	if d.hard == nil {
		d.hard = err
	}
}

func (d *metaDecoder) unknownField(k string) {
	if !d.track {
		return
	}
	d.unknown = append(d.unknown, objpath.NewPath(d.stack...).Append(objpath.Field(k)))
}

// decodeStruct decodes object m into the struct s and returns the struct as
// the unstructured converter writes it.
func (d *metaDecoder) decodeStruct(m map[string]any, s *structSpec) map[string]any {
	out := map[string]any{}
	for _, k := range sortedKeys(m) {
		if d.hard != nil {
			return out
		}
		f, ok := s.fields[k]
		if !ok {
			d.unknownField(k)
			continue
		}
		d.fields = append(d.fields, k)
		d.stack = append(d.stack, objpath.Field(k))
		v, set := d.decodeField(m[k], f)
		d.fields = d.fields[:len(d.fields)-1]
		d.stack = d.stack[:len(d.stack)-1]
		if set {
			out[k] = v
		} else {
			delete(out, k)
		}
	}
	// Fields without omitempty are written even when absent.
	for name, f := range s.fields {
		if f.always {
			if _, ok := out[name]; !ok {
				out[name] = ""
			}
		}
	}
	return out
}

// decodeField decodes v into field f and returns what the converter writes
// for it, or set false when it writes nothing.
func (d *metaDecoder) decodeField(v any, f *fieldSpec) (any, bool) {
	if v == nil {
		// null leaves a value field unchanged (empty here), and unsets a
		// pointer, map or slice.
		return nil, false
	}
	switch f.typ {
	case tString:
		s, ok := d.decodeString(v, f.goType)
		if !ok || (s == "" && !f.always) {
			return nil, false
		}
		return s, true
	case tInt64:
		n, ok := d.decodeInt64(v, f.goType)
		if !ok || (n == 0 && !f.ptr) {
			return nil, false
		}
		return n, true
	case tBool:
		b, ok := v.(bool)
		if !ok {
			d.typeErr(jsonvalue.DecodeWords.Of(v), f.goType)
			return nil, false
		}
		if !b && !f.ptr {
			return nil, false
		}
		return b, true
	case tTime:
		return d.timeField(v, f)
	case tRaw:
		return jsonvalue.DeepCopy(v), true
	case tStringMap:
		return d.stringMapField(v, f)
	case tStringList:
		return d.stringListField(v, f)
	case tStructList:
		return d.structListField(v, f)
	}
	return nil, false
}

// timeField is decodeField for a time field: RFC 3339 in UTC; the zero
// time is not written, or written as null for a pointer.
func (d *metaDecoder) timeField(v any, f *fieldSpec) (any, bool) {
	t, ok := d.decodeTime(v)
	if !ok {
		return nil, false
	}
	if t.IsZero() {
		if f.ptr {
			// A pointer to the zero time is written as null.
			return nil, true
		}
		return nil, false
	}
	return t.UTC().Format(time.RFC3339), true
}

// stringMapField is decodeField for a map of strings.
func (d *metaDecoder) stringMapField(v any, f *fieldSpec) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.typeErr(jsonvalue.DecodeWords.Of(v), f.goType)
		return nil, false
	}
	out := make(map[string]any, len(m))
	for _, k := range sortedKeys(m) {
		s, _ := d.decodeString(m[k], "string")
		out[k] = s
	}
	if len(out) == 0 {
		return nil, false
	}
	return out, true
}

// stringListField is decodeField for a list of strings.
func (d *metaDecoder) stringListField(v any, f *fieldSpec) (any, bool) {
	l, ok := v.([]any)
	if !ok {
		d.typeErr(jsonvalue.DecodeWords.Of(v), f.goType)
		return nil, false
	}
	out := make([]any, len(l))
	for i, e := range l {
		s, _ := d.decodeString(e, "string")
		out[i] = s
	}
	if len(out) == 0 {
		return nil, false
	}
	return out, true
}

// structListField is decodeField for a list of structs (the owner
// references, the managed fields); it stops at the first hard error.
func (d *metaDecoder) structListField(v any, f *fieldSpec) (any, bool) {
	l, ok := v.([]any)
	if !ok {
		d.typeErr(jsonvalue.DecodeWords.Of(v), f.goType)
		return nil, false
	}
	out := make([]any, 0, len(l))
	for i, e := range l {
		if d.hard != nil {
			break
		}
		d.stack = append(d.stack, objpath.Index(i))
		switch e := e.(type) {
		case nil:
			out = append(out, d.decodeStruct(nil, f.elem))
		case map[string]any:
			outer := d.strct
			d.strct = f.elem.name
			out = append(out, d.decodeStruct(e, f.elem))
			d.strct = outer
		default:
			d.typeErr(jsonvalue.DecodeWords.Of(e), f.elemType)
			out = append(out, d.decodeStruct(nil, f.elem))
		}
		d.stack = d.stack[:len(d.stack)-1]
	}
	if len(out) == 0 {
		return nil, false
	}
	return out, true
}

func (d *metaDecoder) decodeString(v any, goType string) (string, bool) {
	switch s := v.(type) {
	case string:
		return s, true
	case nil:
		return "", true
	}
	d.typeErr(jsonvalue.DecodeWords.Of(v), goType)
	return "", false
}

func (d *metaDecoder) decodeInt64(v any, goType string) (int64, bool) {
	text, ok := numberText(v)
	if !ok {
		d.typeErr(jsonvalue.DecodeWords.Of(v), goType)
		return 0, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		d.typeErr("number "+text, goType)
		return 0, false
	}
	return n, true
}

// decodeTime decodes a metav1.Time: its decoder reads a JSON string and
// parses it as RFC 3339; any failure stops the whole decoding.
func (d *metaDecoder) decodeTime(v any) (time.Time, bool) {
	s, ok := v.(string)
	if !ok {
		// The time's own decoder fails to read a string; encoding/json
		// gives the error the context of the field.
		saved := d.soft
		d.soft = nil
		d.typeErr(jsonvalue.DecodeWords.Of(v), "string")
		d.hardErr(d.soft)
		d.soft = saved
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		d.hardErr(err)
		return time.Time{}, false
	}
	return t, true
}

// metaResult is what the ObjectMeta round trip makes of a metadata value.
type metaResult struct {
	// meta is the metadata as the round trip writes it, with the
	// malformed fields dropped (as a storage read drops them).
	meta map[string]any
	// unknown are the paths of the unknown fields, relative to metadata,
	// among the fields that are kept.
	unknown []objpath.Path
	// err is the error decoding the whole value returns: nil when no field
	// is malformed.
	err error
}

// roundTrip decodes metadata value v into ObjectMeta and back. v must be an
// object or null.
func roundTrip(m map[string]any, track bool) metaResult {
	r := metaResult{meta: map[string]any{}}
	var firstSoft, firstHard error
	for _, k := range sortedKeys(m) {
		f, ok := objectMetaSpec.fields[k]
		if !ok {
			if track {
				r.unknown = append(r.unknown, objpath.NewPath(objpath.Field(k)))
			}
			continue
		}
		d := metaDecoder{strct: objectMetaSpec.name, track: track}
		d.fields = append(d.fields, k)
		d.stack = append(d.stack, objpath.Field(k))
		v, set := d.decodeField(m[k], f)
		if d.failed() {
			if d.hard != nil && firstHard == nil {
				firstHard = d.hard
			}
			if d.soft != nil && firstSoft == nil && firstHard == nil {
				firstSoft = d.soft
			}
			continue
		}
		if set {
			r.meta[k] = v
		}
		r.unknown = append(r.unknown, d.unknown...)
	}
	if firstHard != nil {
		r.err = firstHard
	} else {
		r.err = firstSoft
	}
	return r
}

// asWritten reports whether the round trip gives m back as it is (as an
// equal value): every field known and of its Go type, none empty where
// the converter omits it, every field written even when absent present,
// and times already in UTC RFC 3339. Metadata read from storage usually
// is, and then needs no copy. It allocates nothing.
func asWritten(m map[string]any, s *structSpec) bool {
	always := 0
	for k, v := range m {
		f, ok := s.fields[k]
		if !ok || !fieldAsWritten(v, f) {
			return false
		}
		if f.always {
			always++
		}
	}
	return always == s.always
}

// fieldAsWritten is asWritten for the value v of field f.
func fieldAsWritten(v any, f *fieldSpec) bool {
	switch f.typ {
	case tString:
		s, ok := v.(string)
		return ok && (s != "" || f.always)
	case tInt64:
		n, ok := v.(int64)
		return ok && (n != 0 || f.ptr)
	case tBool:
		b, ok := v.(bool)
		return ok && (b || f.ptr)
	case tTime:
		s, ok := v.(string)
		return ok && timeAsWritten(s)
	case tRaw:
		return v != nil
	case tStringMap:
		m, ok := v.(map[string]any)
		return ok && len(m) > 0 && allStrings(maps.Values(m))
	case tStringList:
		l, ok := v.([]any)
		return ok && len(l) > 0 && allStrings(slices.Values(l))
	case tStructList:
		l, ok := v.([]any)
		if !ok || len(l) == 0 {
			return false
		}
		for _, e := range l {
			if m, ok := e.(map[string]any); !ok || !asWritten(m, f.elem) {
				return false
			}
		}
		return true
	}
	return false
}

// allStrings reports whether every value of seq is a string.
func allStrings(seq iter.Seq[any]) bool {
	for v := range seq {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// timeAsWritten reports whether s is a time that is not zero, written as
// the converter writes a metav1.Time (UTC, RFC 3339, whole seconds).
func timeAsWritten(s string) bool {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || t.IsZero() {
		return false
	}
	var buf [len(time.RFC3339) + 8]byte
	return string(t.UTC().AppendFormat(buf[:0], time.RFC3339)) == s
}
