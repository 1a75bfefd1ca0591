package validation

import (
	"fmt"
	"reflect"
	"unicode/utf8"

	openapierrors "k8s.io/kube-openapi/pkg/validation/errors"
	"k8s.io/kube-openapi/pkg/validation/strfmt"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objpath"
)

// The walk validates a value against a cnode tree and yields the errors
// kube-openapi's SchemaValidator yields for the same schema and value: the
// same error values (built with kube-openapi's own constructors, so messages
// and codes are the engine's), kept or dropped by the same rules (best
// failure of anyOf/oneOf by match count, allOf merging, not), so that
// toFieldErrors turns both into the same field errors.
//
// The engine's result also carries a match count, which decides which
// failing anyOf/oneOf branch is reported; every walk function returns the
// match count the engine's result would have.
//
// The walk allocates nothing while the value is valid: paths are
// objpath.Steps (a slice reused depth-first), turned into the engine's path
// strings only when an error is recorded.

// in is the engine's "in" for body validation.
const in = "body"

// path is the path from the root (the empty path, "") to the value being
// validated, rendered as the engine's path string only when an error is
// recorded (see objpath.Steps).
type path = objpath.Steps

// walker holds the errors of one walk. errs is used as a stack: junctors
// validate a branch by appending its errors and then keep, move or drop
// them.
type walker struct {
	errs []error
	// unsupported is set when the value holds a Go type the walk does not
	// handle natively; the caller then asks the engine.
	unsupported bool
	// quiet is set while probing a junctor branch: failures are only
	// counted (nerr), no error is built, so that branches whose errors the
	// engine drops cost no allocation.
	quiet bool
	nerr  int
	// r ratchets errors against an old value when ratcheting is set (see
	// ratchet).
	r          ratchet
	ratcheting bool
}

// child validates v at p against n as node does, for a value the engine
// validates with a validator of its own (the root, a property, an
// additionalProperties value, a list item): with ratcheting, the errors
// of the subtree are dropped when the value is unchanged. The subtree is
// first walked quietly: most are valid, and the errors of an unchanged one
// would be dropped, so errors are built only for changed invalid subtrees
// (walked a second time), and an unchanged or valid object allocates
// nothing.
func (w *walker) child(n *cnode, p path, v any) int {
	if !w.ratcheting {
		return w.node(n, p, v)
	}
	if w.quiet {
		m := w.nerr
		mc := w.node(n, p, v)
		if w.nerr != m && w.r.unchanged(p) {
			w.nerr = m
		}
		return mc
	}
	w.quiet = true
	n0 := w.nerr
	mc := w.node(n, p, v)
	failed := w.nerr != n0
	w.quiet, w.nerr = false, n0
	if !failed || w.r.unchanged(p) {
		return mc
	}
	return w.node(n, p, v)
}

func (w *walker) add(err error) { w.errs = append(w.errs, err) }

// failed records a failure and reports whether the caller must build and
// add its error (not when probing quietly).
func (w *walker) failed() bool {
	if w.quiet {
		w.nerr++
		return false
	}
	return true
}

// node validates v at path p against n, as SchemaValidator.Validate does,
// and returns the engine's match count.
func (w *walker) node(n *cnode, p path, v any) int {
	if v == nil {
		return w.null(n, p)
	}

	var (
		kind valueKind
		s    string
		i    int64
		f    float64
		l    []any
		m    map[string]any
	)
	switch x := v.(type) {
	case map[string]any:
		kind, m = kindObject, x
	case string:
		kind, s = kindString, x
	case []any:
		kind, l = kindArray, x
	case int64:
		kind, i = kindInt, x
	case float64:
		kind, f = kindFloat, x
	case bool:
		kind = kindBool
	}
	if !isPlainKind(kind, m == nil, l == nil, f) {
		// The caller reads the value's JSON form instead.
		w.unsupported = true
		return 0
	}

	// The validators run in the engine's order: type, junctors, string,
	// format, number, array, enum, object. Each one that applies adds one
	// to the count, plus its own result's count; the node adds one.
	mc := 2 // junctors always apply, plus the node's own
	if n.typeApplies {
		mc += 1 + w.typeCheck(n, p, kind, f)
	}
	if n.hasJunctors {
		mc += w.junctors(n, p, v)
	} else {
		mc++
	}
	switch kind {
	case kindString:
		mc += w.str(n, p, s)
	case kindInt, kindFloat:
		mc += 2
		if n.hasNumberKeywords {
			w.numberCheck(n, p, kind == kindInt, i, f)
		}
	case kindArray:
		mc++
		if n.needsArrayWork {
			mc += w.array(n, p, l)
		} else {
			mc++
		}
	}
	mc++
	if len(n.enum) > 0 {
		w.enumCheck(n, p, v, kind, s)
	}
	if kind == kindObject {
		mc++
		if n.needsObjectWork {
			mc += w.object(n, p, m)
		}
	}
	return mc
}

// isPlainKind reports whether a non-null value of kind, as node's switch
// found it, is plain JSON: not when no case matched (kindNull), for a nil
// map or slice (null) and for NaN and the infinities (no JSON form).
func isPlainKind(kind valueKind, nilMap, nilList bool, f float64) bool {
	switch kind {
	case kindNull:
		return false
	case kindObject:
		return !nilMap
	case kindArray:
		return !nilList
	}
	return f-f == 0
}

// null is node for a null value: the engine runs only its type and enum
// validators on null, and does not count the validators themselves.
func (w *walker) null(n *cnode, p path) int {
	mc := 1
	if !n.nullOK {
		if w.failed() {
			w.add(openapierrors.InvalidType(p.String(), in, n.typesJoined, "null"))
		}
		mc = 0
	}
	if len(n.enum) > 0 {
		// reflect cannot compare an untyped nil: null never matches.
		if w.failed() {
			w.add(&enumError{name: p.String(), values: n.enum})
		}
	}
	return mc
}

// str runs the engine's string and format validators on a string value;
// it returns their count.
func (w *walker) str(n *cnode, p path, s string) int {
	mc := 1
	if n.hasStringKeywords {
		w.stringCheck(n, p, s)
	}
	if n.formatChecked {
		mc++
		if !strfmt.Default.Validates(n.format, s) {
			if w.failed() {
				w.add(openapierrors.InvalidType(p.String(), in, n.format, s))
			}
		}
	}
	return mc
}

// typeCheck is the engine's type validator for a non-null value; it returns
// the validator's own count (1 when the type matches, 0 otherwise).
func (w *walker) typeCheck(n *cnode, p path, kind valueKind, f float64) int {
	ok := n.hasType[kind]
	switch kind {
	case kindString, kindArray:
		// A format on a non-numeric node lets every string and array
		// through.
		if n.format != "" && !n.hasNumber && !n.hasInteger {
			return 1
		}
	case kindInt:
		ok = ok || n.hasNumber
		if n.format != "" && !ok && n.format != "int64" {
			return w.formatMismatch(n, p, "int64")
		}
	case kindFloat:
		// An integral float is an integer.
		ok = ok || (n.hasInteger && isJSONInteger(f))
		if n.format != "" && !ok && n.format != "float64" {
			return w.formatMismatch(n, p, "float64")
		}
	default: // bool, object
		if n.format != "" && !ok {
			return w.formatMismatch(n, p, "")
		}
	}
	if !ok {
		return w.typeMismatch(n, p, kind)
	}
	return 1
}

// formatMismatch records the engine's type error for a value (got, the
// type name the engine gives it) that the node's format does not allow,
// and returns 0, the count of a failed type validator. Callers pass
// constants: they convert to the interface without an allocation.
func (w *walker) formatMismatch(n *cnode, p path, got any) int {
	if w.failed() {
		w.add(openapierrors.InvalidType(p.String(), in, n.format, got))
	}
	return 0
}

// typeMismatch records the engine's type error for a value of a kind none
// of the node's types admits, and returns 0, the count of a failed type
// validator. The kind's name is boxed only when the error is built.
func (w *walker) typeMismatch(n *cnode, p path, kind valueKind) int {
	if w.failed() {
		w.add(openapierrors.InvalidType(p.String(), in, n.typesJoined, kindTypeName[kind]))
	}
	return 0
}

// stringCheck is the engine's string validator: the first failing of
// maxLength, minLength (both in runes) and pattern.
func (w *walker) stringCheck(n *cnode, p path, s string) {
	if n.maxLength != nil && int64(len(s)) > *n.maxLength && int64(utf8.RuneCountInString(s)) > *n.maxLength {
		if w.failed() {
			w.add(openapierrors.TooLong(p.String(), in, *n.maxLength, s))
		}
		return
	}
	if n.minLength != nil && int64(utf8.RuneCountInString(s)) < *n.minLength {
		if w.failed() {
			w.add(openapierrors.TooShort(p.String(), in, *n.minLength, s))
		}
		return
	}
	if n.pattern != "" {
		if n.re == nil {
			if w.failed() {
				w.add(openapierrors.FailedPattern(p.String(), in, n.pattern+", but pattern is invalid: "+n.reErr, s))
			}
		} else if !n.re.MatchString(s) {
			if w.failed() {
				w.add(openapierrors.FailedPattern(p.String(), in, n.pattern, s))
			}
		}
	}
}

// rangeError is the plain error the engine records when a value or a
// bound is outside the range of the node's numeric type and format.
func rangeError(n *cnode, prefix string, p path) error {
	if n.numFormat != "" {
		return fmt.Errorf("%s value must be of type %s with format %s in %s", prefix, n.numType, n.numFormat, p.String())
	}
	return fmt.Errorf("%s value must be of type %s (default format) in %s", prefix, n.numType, p.String())
}

// numberCheck is the engine's number validator: the value's range, then
// multipleOf, minimum and maximum, each compared natively (int64 or
// float64) when its bound is in range, as float64 otherwise.
func (w *walker) numberCheck(n *cnode, p path, isInt bool, i int64, f float64) {
	if n.checkRange {
		w.valueRange(n, p, isInt, i, f)
	}
	asFloat := f
	if isInt {
		asFloat = float64(i)
	}
	if b := n.multipleOf; b != nil {
		switch {
		case !b.inRange:
			w.outOfRange(n, "MultipleOf", p)
			w.multipleOfFloat(p, asFloat, b.value)
		case isInt:
			w.multipleOfInt(p, i, b.asInt)
		default:
			w.multipleOfFloat(p, f, b.value)
		}
	}
	if b := n.minimum; b != nil {
		switch {
		case !b.inRange:
			w.outOfRange(n, "Minimum boundary", p)
			w.minimumFloat(p, asFloat, b)
		case isInt:
			w.minimumInt(p, i, b)
		default:
			w.minimumFloat(p, f, b)
		}
	}
	if b := n.maximum; b != nil {
		switch {
		case !b.inRange:
			w.outOfRange(n, "Maximum boundary", p)
			w.maximumFloat(p, asFloat, b)
		case isInt:
			w.maximumInt(p, i, b)
		default:
			w.maximumFloat(p, f, b)
		}
	}
}

// valueRange checks that the value is in the range of the node's numeric
// type and format.
func (w *walker) valueRange(n *cnode, p path, isInt bool, i int64, f float64) {
	var ok bool
	if isInt {
		ok = intInRange(i, n.numType, n.numFormat)
	} else {
		ok = floatInRange(f, n.numType, n.numFormat)
	}
	if !ok {
		w.outOfRange(n, "Checked", p)
	}
}

// outOfRange records the rangeError of a value or bound outside the range
// of the node's numeric type and format.
func (w *walker) outOfRange(n *cnode, prefix string, p path) {
	if w.failed() {
		w.add(rangeError(n, prefix, p))
	}
}

func (w *walker) multipleOfInt(p path, i, factor int64) {
	if factor <= 0 {
		if w.failed() {
			w.add(openapierrors.MultipleOfMustBePositive(p.String(), in, factor))
		}
		return
	}
	if i/factor*factor != i {
		if w.failed() {
			w.add(openapierrors.NotMultipleOf(p.String(), in, factor, i))
		}
	}
}

func (w *walker) minimumInt(p path, i int64, b *numBound) {
	if i < b.asInt || (b.exclusive && i == b.asInt) {
		if w.failed() {
			w.add(openapierrors.ExceedsMinimumInt(p.String(), in, b.asInt, b.exclusive, i))
		}
	}
}

func (w *walker) maximumInt(p path, i int64, b *numBound) {
	if i > b.asInt || (b.exclusive && i == b.asInt) {
		if w.failed() {
			w.add(openapierrors.ExceedsMaximumInt(p.String(), in, b.asInt, b.exclusive, i))
		}
	}
}

func (w *walker) multipleOfFloat(p path, f, factor float64) {
	if factor <= 0 {
		if w.failed() {
			w.add(openapierrors.MultipleOfMustBePositive(p.String(), in, factor))
		}
		return
	}
	var q float64
	if factor < 1 {
		q = 1 / factor * f
	} else {
		q = f / factor
	}
	if !isJSONInteger(q) {
		if w.failed() {
			w.add(openapierrors.NotMultipleOf(p.String(), in, factor, f))
		}
	}
}

func (w *walker) minimumFloat(p path, f float64, b *numBound) {
	if f < b.value || (b.exclusive && f <= b.value) {
		if w.failed() {
			w.add(openapierrors.ExceedsMinimum(p.String(), in, b.value, b.exclusive, f))
		}
	}
}

func (w *walker) maximumFloat(p path, f float64, b *numBound) {
	if f > b.value || (b.exclusive && f >= b.value) {
		if w.failed() {
			w.add(openapierrors.ExceedsMaximum(p.String(), in, b.value, b.exclusive, f))
		}
	}
}

// array is the engine's array validator (items, minItems, maxItems,
// uniqueItems); it returns the validator's own count.
func (w *walker) array(n *cnode, p path, l []any) int {
	mc := 0
	if n.children().items != nil {
		for i, x := range l {
			mc += w.child(n.items, append(p, objpath.Index(i)), x)
		}
	}
	size := int64(len(l))
	if n.minItems != nil && size < *n.minItems {
		if w.failed() {
			w.add(openapierrors.TooFewItems(p.String(), in, *n.minItems, size))
		}
	}
	if n.maxItems != nil && size > *n.maxItems {
		if w.failed() {
			w.add(openapierrors.TooManyItems(p.String(), in, *n.maxItems, size))
		}
	}
	if n.uniqueItems && hasDeepDuplicate(l) {
		if w.failed() {
			w.add(openapierrors.DuplicateItems(p.String(), in))
		}
	}
	return mc + 1
}

// hasDeepDuplicate reports whether two items of l are reflect.DeepEqual.
func hasDeepDuplicate(l []any) bool {
	for i := 1; i < len(l); i++ {
		for j := 0; j < i; j++ {
			if jsonvalue.Equal(l[i], l[j]) {
				return true
			}
		}
	}
	return false
}

// enumCheck is the engine's enum validator: the value matches an entry
// when it converts (Go conversion rules) to the entry's type and is then
// deeply equal to it.
func (w *walker) enumCheck(n *cnode, p path, v any, kind valueKind, s string) {
	if kind == kindString && n.enumOfStrings {
		for _, e := range n.enum {
			if e.(string) == s {
				return
			}
		}
	} else {
		for _, e := range n.enum {
			if enumMatches(v, e) {
				return
			}
		}
	}
	if w.failed() {
		w.add(&enumError{name: p.String(), value: v, values: n.enum})
	}
}

// enumMatches reports whether the non-nil value v matches the enum entry e
// as the engine decides it.
func enumMatches(v, e any) bool {
	switch x := v.(type) {
	case string:
		if y, ok := e.(string); ok {
			return x == y
		}
	case int64:
		switch y := e.(type) {
		case int64:
			return x == y
		case float64:
			return float64(x) == y
		}
	case float64:
		switch y := e.(type) {
		case float64:
			return x == y
		case int64:
			return int64(x) == y
		}
	case bool:
		if y, ok := e.(bool); ok {
			return x == y
		}
	}
	t := reflect.TypeOf(e)
	if t == nil {
		return false
	}
	rv := reflect.ValueOf(v)
	return rv.Type().ConvertibleTo(t) && reflect.DeepEqual(rv.Convert(t).Interface(), e)
}

// object is the engine's object validator (minProperties, maxProperties,
// properties and additionalProperties, required); it returns the
// validator's own count (the sum of its children's).
func (w *walker) object(n *cnode, p path, m map[string]any) int {
	w.propertyCount(n, p, int64(len(m)))
	mc := 0
	if n.hasObjectChildren {
		mc = w.members(n, p, m)
	}
	if len(n.required) > 0 {
		w.requiredKeys(n, p, m)
	}
	return mc
}

// propertyCount checks an object's size against minProperties and
// maxProperties.
func (w *walker) propertyCount(n *cnode, p path, size int64) {
	if n.minProps != nil && size < *n.minProps {
		if w.failed() {
			w.add(openapierrors.TooFewProperties(p.String(), in, *n.minProps, size))
		}
	}
	if n.maxProps != nil && size > *n.maxProps {
		if w.failed() {
			w.add(openapierrors.TooManyProperties(p.String(), in, *n.maxProps, size))
		}
	}
}

// members validates each member of an object against its property's node,
// else against additionalProperties (or reports it when they are
// forbidden); it returns the sum of the children's counts.
func (w *walker) members(n *cnode, p path, m map[string]any) int {
	mc := 0
	n.children()
	for k, x := range m {
		if c, ok := n.props[k]; ok {
			mc += w.child(c, append(p, objpath.Field(k)), x)
			continue
		}
		if n.additionalForbidden {
			if w.failed() {
				w.add(openapierrors.PropertyNotAllowed(p.String(), in, k))
			}
		} else if n.additional != nil {
			mc += w.child(n.additional, append(p, objpath.Dotted(k)), x)
		}
	}
	return mc
}

// requiredKeys reports each required key the object lacks.
func (w *walker) requiredKeys(n *cnode, p path, m map[string]any) {
	for _, k := range n.required {
		if _, ok := m[k]; !ok {
			if w.failed() {
				w.add(openapierrors.Required(append(p, objpath.Dotted(k)).String(), in))
			}
		}
	}
}
