package validation

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"

	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// A cnode is one schema node compiled for value validation. It holds, in
// ready-to-use form, every keyword kube-openapi's SchemaValidator reads from
// the node, so that the walk (walk.go) reproduces the engine's results without
// building validators, reflecting on values or formatting paths while the
// value is valid.
//
// A cnode tree is shared by concurrent walks. It is immutable once
// compiled, except that a node New compiled from a structural model
// compiles its children (props, items, additional) once, on first use
// (children), under its lazy's Once.
type cnode struct {
	// Type keyword: the declared types, joined as the engine prints them, and
	// which JSON types they include.
	types       []string
	typesJoined string
	hasType     [numKinds]bool // indexed by valueKind
	hasInteger  bool
	hasNumber   bool
	// nullOK: a null value passes the type check (nullable, type null, or
	// no type at all).
	nullOK bool
	// typeApplies: the engine runs its type validator on non-null values
	// (a type or a format is declared).
	typeApplies bool

	// format is the node's format as the type validator sees it;
	// formatChecked says whether strings are checked against it (the
	// format is registered in strfmt.Default).
	format        string
	formatChecked bool

	// Junctors.
	allOf, anyOf, oneOf []*cnode
	not                 *cnode

	// String keywords.
	maxLength, minLength *int64
	pattern              string
	re                   *regexp.Regexp
	reErr                string // the compile error of an invalid pattern

	// Number keywords, with the type and format the engine's number
	// validator checks ranges against ("" unless exactly one type).
	numType, numFormat string
	// checkRange: numeric values are checked against the range of
	// numType/numFormat (only int32, int64 and float can fail).
	checkRange bool
	multipleOf *numBound
	maximum    *numBound
	minimum    *numBound

	// Array keywords.
	items              *cnode
	minItems, maxItems *int64
	uniqueItems        bool

	enum []any

	// Object keywords.
	props               map[string]*cnode
	required            []string
	additionalForbidden bool
	additional          *cnode
	minProps, maxProps  *int64
	hasObjectChildren   bool // props, additional or forbidden keys to look at
	hasStringKeywords   bool
	hasNumberKeywords   bool
	hasJunctors         bool
	needsArrayWork      bool
	needsObjectWork     bool
	enumOfStrings       bool // every enum value is a string

	// lazy is set on a node compiled from a structural model node with
	// children (compileModel): its props, items and additional are
	// compiled on first use (children). Read them only after calling
	// children.
	lazy *lazyChildren
}

// lazyChildren is the model node whose children a cnode compiles on
// first use, once, whatever the number of concurrent walks.
type lazyChildren struct {
	once  sync.Once
	model *structural.Schema
	// done is set by a compile that returned (read after once, as the
	// children it compiles).
	done bool
}

// children compiles n's children (props, items, additional) if n was
// compiled from a model and they are not yet; it returns n. A compile
// that panicked panics again at every later call: sync.Once counts it as
// done, and n would otherwise validate nothing below it from then on.
func (n *cnode) children() *cnode {
	if l := n.lazy; l != nil {
		l.once.Do(func() {
			n.compileModelChildren(l.model)
			l.done = true
		})
		if !l.done {
			panic("validation: compiling the children of a schema node panicked before")
		}
	}
	return n
}

// numBound is a multipleOf, maximum or minimum value, with whether it is
// within the range of the node's numeric type and format (when it is not,
// the engine reports that on every value and compares as float64).
type numBound struct {
	value     float64
	asInt     int64 // int64(value), the engine's conversion for integer values
	exclusive bool
	inRange   bool
}

// valueKind is the JSON kind of a value the walk handles natively.
type valueKind uint8

const (
	kindNull valueKind = iota
	kindBool
	kindString
	kindInt
	kindFloat
	kindArray
	kindObject
	numKinds
)

// kindTypeName is the JSON type name the engine infers for a value kind.
var kindTypeName = [numKinds]string{
	kindNull: "null", kindBool: "boolean", kindString: "string", kindInt: "integer",
	kindFloat: "number", kindArray: "array", kindObject: "object",
}

// compile compiles s and everything below it. It returns false if s uses a
// keyword the walk does not implement (patternProperties, dependencies,
// items as an array, additionalItems, $ref); the caller then keeps the
// engine for the whole validator.
func compile(s *spec.Schema) (*cnode, bool) {
	if s == nil {
		return nil, true
	}
	if s.Ref.String() != "" || len(s.PatternProperties) > 0 || len(s.Dependencies) > 0 ||
		s.AdditionalItems != nil || (s.Items != nil && len(s.Items.Schemas) > 0) {
		return nil, false
	}
	n := &cnode{}
	n.compileType(s)
	ok := n.compileJunctors(s)
	n.compileString(s)
	n.compileNumber(s)
	ok = n.compileArray(s) && ok
	ok = n.compileObject(s) && ok
	n.compileEnum(s)
	if !ok {
		return nil, false
	}
	return n, true
}

// compileModel compiles the structural model node s as compile compiles
// fromModel(s), except that its children are compiled on first use
// (cnode.children): a walk compiles only the nodes values reach. The
// caller has checked that scanModel(s, …, true) compiles (compile cannot
// fail then).
func compileModel(s *structural.Schema) *cnode {
	if s == nil {
		return nil
	}
	own := &spec.Schema{}
	fillNode(own, s)
	ap := s.AdditionalProperties
	if ap != nil {
		// The schema is left to the children; whether other properties
		// are allowed is the node's own.
		own.AdditionalProperties = &spec.SchemaOrBool{Allows: ap.Allows}
	}
	n, _ := compile(own)
	hasItems := s.Items != nil
	hasAdditional := ap != nil && ap.Allows && ap.Schema != nil
	if hasItems || len(s.Properties) > 0 || hasAdditional {
		n.lazy = &lazyChildren{model: s}
		n.needsArrayWork = n.needsArrayWork || hasItems
		n.hasObjectChildren = n.hasObjectChildren || len(s.Properties) > 0 || hasAdditional
		n.needsObjectWork = n.needsObjectWork || n.hasObjectChildren
	}
	return n
}

// compileModelChildren compiles the children of the model node s into n,
// as fromModel converts them.
func (n *cnode) compileModelChildren(s *structural.Schema) {
	if len(s.Properties) > 0 {
		n.props = make(map[string]*cnode, len(s.Properties))
		for k, c := range s.Properties {
			if c == nil {
				c = &structural.Schema{}
			}
			n.props[k] = compileModel(c)
		}
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Allows {
		n.additional = compileModel(ap.Schema)
	}
	if s.Items != nil {
		// Without the model's items, n keeps those compileModel
		// compiled from the Source (fillNode).
		n.items = compileModel(s.Items)
	}
}

// sourceCompiles reports whether compile would compile the schemas
// fromModel converts from the Source of model node s (junctors, items the
// model has none of): only those can use a keyword the walk does not
// implement; the model's own structure always compiles. It reads the
// source instead of converting and compiling it (which was 87% of what
// New allocated over the corpus, to be dropped).
func sourceCompiles(s *structural.Schema) bool {
	p := s.Source
	if p == nil || !junctorsWalkable(p) {
		return p == nil
	}
	// An items array where the model has no items converts to an empty
	// one, which compiles.
	return p.Items == nil || s.Items != nil || walkable(p.Items.Schema)
}

// walkable reports whether compile would compile fromProps(p): whether
// neither p nor a schema below it that compile reads (junctors, items,
// properties, allowed additionalProperties) has a keyword the walk does
// not implement (patternProperties, dependencies, additionalItems, items
// as an array; $ref is never converted).
func walkable(p *schema.Props) bool {
	if p == nil {
		return true
	}
	if len(p.PatternProperties) > 0 || len(p.Dependencies) > 0 || p.AdditionalItems != nil ||
		(p.Items != nil && len(p.Items.Array) > 0) || !junctorsWalkable(p) {
		return false
	}
	if p.Items != nil && !walkable(p.Items.Schema) {
		return false
	}
	for _, c := range p.Properties {
		if !walkable(c) {
			return false
		}
	}
	ap := p.AdditionalProperties
	return ap == nil || !ap.Allows || walkable(ap.Schema)
}

// junctorsWalkable reports whether p's allOf, anyOf, oneOf and not are
// walkable.
func junctorsWalkable(p *schema.Props) bool {
	for _, js := range [...][]schema.Props{p.AllOf, p.AnyOf, p.OneOf} {
		for i := range js {
			if !walkable(&js[i]) {
				return false
			}
		}
	}
	return walkable(p.Not)
}

// compileType compiles type and format.
func (n *cnode) compileType(s *spec.Schema) {
	n.types = s.Type
	n.typesJoined = strings.Join(s.Type, ",")
	n.format = s.Format
	n.typeApplies = len(s.Type) > 0 || s.Format != ""
	n.nullOK = len(s.Type) == 0 || s.Nullable || s.Type.Contains("null")
	for k := range kindTypeName {
		n.hasType[k] = s.Type.Contains(kindTypeName[k])
	}
	n.hasInteger = n.hasType[kindInt]
	n.hasNumber = n.hasType[kindFloat]
	n.formatChecked = strfmt.Default.ContainsName(s.Format)
}

// compileJunctors compiles allOf, anyOf, oneOf and not.
func (n *cnode) compileJunctors(s *spec.Schema) bool {
	ok := true
	sub := func(in []spec.Schema) []*cnode {
		var out []*cnode
		for i := range in {
			c, cok := compile(&in[i])
			ok = ok && cok
			out = append(out, c)
		}
		return out
	}
	n.allOf, n.anyOf, n.oneOf = sub(s.AllOf), sub(s.AnyOf), sub(s.OneOf)
	if s.Not != nil {
		var cok bool
		n.not, cok = compile(s.Not)
		ok = ok && cok
	}
	n.hasJunctors = len(n.allOf)+len(n.anyOf)+len(n.oneOf) > 0 || n.not != nil
	return ok
}

// compileString compiles the string keywords.
func (n *cnode) compileString(s *spec.Schema) {
	n.maxLength, n.minLength = s.MaxLength, s.MinLength
	if s.Pattern != "" {
		n.pattern = s.Pattern
		n.re, n.reErr = cachedRegexp(s.Pattern)
	}
	n.hasStringKeywords = n.maxLength != nil || n.minLength != nil || n.pattern != ""
}

// compileNumber compiles the numeric type's range and the number keywords.
func (n *cnode) compileNumber(s *spec.Schema) {
	if len(s.Type) == 1 {
		switch s.Type[0] {
		case "integer":
			n.numType = "integer"
			if s.Format == "int32" || s.Format == "int64" {
				n.numFormat = s.Format
			}
		case "number":
			n.numType = "number"
			if s.Format == "float" || s.Format == "double" {
				n.numFormat = s.Format
			}
		}
	}
	n.checkRange = n.numType == "integer" || n.numFormat == "float"
	bound := func(v *float64, exclusive bool) *numBound {
		if v == nil {
			return nil
		}
		return &numBound{value: *v, asInt: int64(*v), exclusive: exclusive, inRange: floatInRange(*v, n.numType, n.numFormat)}
	}
	n.multipleOf = bound(s.MultipleOf, false)
	n.maximum = bound(s.Maximum, s.ExclusiveMaximum)
	n.minimum = bound(s.Minimum, s.ExclusiveMinimum)
	n.hasNumberKeywords = n.checkRange || n.multipleOf != nil || n.maximum != nil || n.minimum != nil
}

// compileArray compiles items and the array keywords.
func (n *cnode) compileArray(s *spec.Schema) bool {
	ok := true
	if s.Items != nil && s.Items.Schema != nil {
		n.items, ok = compile(s.Items.Schema)
	}
	n.minItems, n.maxItems, n.uniqueItems = s.MinItems, s.MaxItems, s.UniqueItems
	n.needsArrayWork = n.items != nil || n.minItems != nil || n.maxItems != nil || n.uniqueItems
	return ok
}

// compileObject compiles properties, additionalProperties and the object
// keywords.
func (n *cnode) compileObject(s *spec.Schema) bool {
	ok := true
	if len(s.Properties) > 0 {
		n.props = make(map[string]*cnode, len(s.Properties))
		// One copy of a map value to point at, reused: compile keeps
		// what the schema holds, never the schema (a copy per property
		// was a fifth of what compiling a large CRD's validator
		// allocated, issue 32).
		p := &spec.Schema{}
		for k := range s.Properties {
			*p = s.Properties[k]
			c, cok := compile(p)
			ok = ok && cok
			n.props[k] = c
		}
	}
	n.required = s.Required
	if ap := s.AdditionalProperties; ap != nil {
		if !ap.Allows {
			n.additionalForbidden = true
		} else if ap.Schema != nil {
			var cok bool
			n.additional, cok = compile(ap.Schema)
			ok = ok && cok
		}
	}
	n.minProps, n.maxProps = s.MinProperties, s.MaxProperties
	n.hasObjectChildren = len(n.props) > 0 || n.additional != nil || n.additionalForbidden
	n.needsObjectWork = n.hasObjectChildren || len(n.required) > 0 || n.minProps != nil || n.maxProps != nil
	return ok
}

// compileEnum compiles enum.
func (n *cnode) compileEnum(s *spec.Schema) {
	n.enum = s.Enum
	n.enumOfStrings = len(n.enum) > 0
	for _, e := range n.enum {
		if _, isString := e.(string); !isString {
			n.enumOfStrings = false
		}
	}
}

// regexps caches compiled patterns by their source, shared by all
// validators (many CRDs repeat the same patterns).
var regexps sync.Map // string → regexpEntry

type regexpEntry struct {
	re  *regexp.Regexp
	err string
}

// cachedRegexp compiles pattern once, as the engine compiles it (Go RE2
// syntax), returning the compile error text for an invalid pattern.
func cachedRegexp(pattern string) (*regexp.Regexp, string) {
	if e, ok := regexps.Load(pattern); ok {
		return e.(regexpEntry).re, e.(regexpEntry).err
	}
	re, err := regexp.Compile(pattern)
	e := regexpEntry{re: re}
	if err != nil {
		e.err = err.Error()
	}
	regexps.Store(pattern, e)
	return e.re, e.err
}

// Numeric helpers mirroring go-openapi's conversions.

// maxJSONInteger is the largest float64 go-openapi treats as a JSON
// integer (2^53-1, JavaScript's MAX_SAFE_INTEGER).
const maxJSONInteger = float64(1<<53 - 1)

// isJSONInteger reports whether f is, within go-openapi's tolerance, an
// integer in [-(2^53-1), 2^53-1] (its IsFloat64AJSONInteger).
func isJSONInteger(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSONInteger || f > maxJSONInteger {
		return false
	}
	r := math.Round(f)
	if f == r {
		return true
	}
	if r == 0 {
		return false
	}
	d := math.Abs(f - r)
	if d == 0 {
		return true
	}
	return d < 1e-9*math.Abs(r)
}

// intInRange reports whether the integer i passes the engine's range check
// for a numeric type and format: only int32 can fail.
func intInRange(i int64, numType, numFormat string) bool {
	if numType == "integer" && numFormat == "int32" {
		return i >= math.MinInt32 && i <= math.MaxInt32
	}
	return true
}

// floatInRange reports whether f passes the engine's range check: the
// engine prints f in decimal ('f', shortest) and parses it back as the
// type's Go type. Common values are decided arithmetically; the rest go
// through the same printing and parsing.
func floatInRange(f float64, numType, numFormat string) bool {
	switch {
	case numType == "integer":
		finite := !math.IsNaN(f) && !math.IsInf(f, 0)
		if finite && f != math.Trunc(f) {
			return false
		}
		if numFormat == "int32" {
			return finite && f >= math.MinInt32 && f <= math.MaxInt32
		}
		if finite && math.Abs(f) <= maxJSONInteger {
			return true
		}
		return parsesAsInt64(f)
	case numFormat == "float":
		if !math.IsNaN(f) && math.Abs(f) < 3.4e38 {
			return true
		}
		return parsesAsFloat32(f)
	}
	return true
}

// parsesAsInt64 is the engine's range check for int64 done its way.
func parsesAsInt64(f float64) bool {
	_, err := strconv.ParseInt(strconv.FormatFloat(f, 'f', -1, 64), 10, 64)
	return err == nil
}

// parsesAsFloat32 is the engine's range check for float done its way.
func parsesAsFloat32(f float64) bool {
	_, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', -1, 64), 32)
	return err == nil
}
