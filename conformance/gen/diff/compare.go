package diff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// line is one line of the contract's JSON output, for any verb.
type line struct {
	File     string          `json:"file"`
	Document int             `json:"document"`
	Kind     string          `json:"kind"`
	Name     string          `json:"name"`
	Object   json.RawMessage `json:"object"`
	Pruned   []string        `json:"pruned"`
	Errors   []fieldError    `json:"errors"`
	// Operation is CREATE or UPDATE on lines of apply --old and check
	// --old.
	Operation string `json:"operation"`
	// Warnings are check's warnings.
	Warnings []string `json:"warnings"`
	// Objects are the converted objects of convert --review.
	Objects json.RawMessage `json:"objects"`
}

// fieldError is one error of a line.
type fieldError struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

// key identifies a document of the output.
func (l *line) key() string { return fmt.Sprintf("%s#%d", l.File, l.Document) }

// parseLines parses JSON Lines output; unparsable lines are an error.
func parseLines(data []byte) (map[string]*line, []string, error) {
	out := map[string]*line{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		l := &line{}
		if err := json.Unmarshal(sc.Bytes(), l); err != nil {
			return nil, nil, fmt.Errorf("bad JSON line %q: %v", sc.Text(), err)
		}
		if _, dup := out[l.key()]; !dup {
			order = append(order, l.key())
		}
		out[l.key()] = l
	}
	return out, order, sc.Err()
}

// Diff is one difference between the oracle's and crdschema's answer for a
// document.
type Diff struct {
	// Key is file#document.
	Key string
	// Class is a normalised description grouping similar differences.
	Class string
	// Text describes this difference precisely.
	Text string
}

// compareOutputs compares two JSON Lines outputs of verb by the conformance
// README's rules.
func compareOutputs(verb string, oracle, got []byte) ([]Diff, error) {
	if verb == "openapi" || verb == "columns" || verb == "scale" {
		return compareServed(verb, oracle, got)
	}
	exp, order, err := parseLines(oracle)
	if err != nil {
		return nil, fmt.Errorf("oracle: %v", err)
	}
	act, actOrder, err := parseLines(got)
	if err != nil {
		return []Diff{{Key: "*", Class: verb + ": unparsable output", Text: err.Error()}}, nil
	}
	var diffs []Diff
	for _, k := range order {
		e := exp[k]
		a, ok := act[k]
		if !ok {
			diffs = append(diffs, Diff{Key: k, Class: verb + ": document missing from crdschema's output", Text: "no line for " + k})
			continue
		}
		if IsCheckVerb(verb) {
			if e.Operation != a.Operation {
				diffs = append(diffs, Diff{Key: k, Class: fmt.Sprintf("%s: operation %s where the oracle says %s", verb, a.Operation, e.Operation), Text: "operation " + a.Operation})
			}
			if !slices.Equal(e.Warnings, a.Warnings) {
				diffs = append(diffs, Diff{Key: k, Class: verb + ": warnings differ", Text: fmt.Sprintf("oracle %q, crdschema %q", e.Warnings, a.Warnings)})
			}
			diffs = append(diffs, compareCheck(k, e, a)...)
		} else if verb == "review" {
			diffs = append(diffs, compareReview(k, e, a)...)
		} else {
			if e.Operation != a.Operation {
				diffs = append(diffs, Diff{Key: k, Class: fmt.Sprintf("%s: operation %s where the oracle says %s", verb, a.Operation, e.Operation), Text: "operation " + a.Operation})
			}
			diffs = append(diffs, compareObject(verb, k, e, a)...)
		}
	}
	for _, k := range actOrder {
		if _, ok := exp[k]; !ok {
			diffs = append(diffs, Diff{Key: k, Class: verb + ": extra document in crdschema's output", Text: "extra line for " + k})
		}
	}
	return diffs, nil
}

// IsCheckVerb reports whether a difftest verb runs check: check itself,
// and the third edition's warnings and crd-update batches.
func IsCheckVerb(verb string) bool {
	return verb == "check" || verb == "warnings" || verb == "crd-update"
}

// errorSet returns the (type, field) pairs of errs.
func errorSet(errs []fieldError) map[string]bool {
	s := map[string]bool{}
	for _, e := range errs {
		s[e.Type+" @ "+e.Field] = true
	}
	return s
}

// contributedDetail is the apiserver's error on the (at most four) costliest
// rules of a schema whose total estimated CEL cost is too high.
const contributedDetail = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"

// costTie reports whether exp and got differ only in which fields carry
// contributedDetail, with as many on each side: among rules of equal cost
// the apiserver names them in random map order.
func costTie(exp, got []fieldError) bool {
	split := func(errs []fieldError) (map[string]bool, int) {
		rest, n := map[string]bool{}, 0
		for _, e := range errs {
			if e.Type == "FieldValueForbidden" && e.Detail == contributedDetail {
				n++
				continue
			}
			rest[e.Type+" @ "+e.Field] = true
		}
		return rest, n
	}
	er, en := split(exp)
	gr, gn := split(got)
	return en > 0 && en == gn && maps.Equal(er, gr)
}

// defaultCoercionTie reports whether exp and got differ only in one error
// each, both rejecting the same default value for a malformed apiVersion,
// kind or metadata of a resource in it. The apiserver coerces a default's
// resources walking its maps in Go map order and reports the first
// malformed one it meets, so when a default holds several, which one it
// names is random.
func defaultCoercionTie(exp, got []fieldError) bool {
	es, gs := errorSet(exp), errorSet(got)
	var onlyExp, onlyGot []string
	for p := range es {
		if !gs[p] {
			onlyExp = append(onlyExp, p)
		}
	}
	for p := range gs {
		if !es[p] {
			onlyGot = append(onlyGot, p)
		}
	}
	if len(onlyExp) != 1 || len(onlyGot) != 1 {
		return false
	}
	e, eok := coercedDefault(onlyExp[0])
	g, gok := coercedDefault(onlyGot[0])
	return eok && gok && e == g
}

// coercedDefault returns the path of the default value an error pair
// (type @ field) rejects, when it is a coercion error of a resource in it.
func coercedDefault(pair string) (string, bool) {
	t, f, _ := strings.Cut(pair, " @ ")
	if t != "FieldValueInvalid" {
		return "", false
	}
	if !strings.HasSuffix(f, ".apiVersion") && !strings.HasSuffix(f, ".kind") && !strings.HasSuffix(f, ".metadata") {
		return "", false
	}
	// The default's path: up to the last "default" step (the whole field
	// of a bare schema's root default starts with it).
	for i := strings.LastIndex(f, "default"); i >= 0; i = strings.LastIndex(f[:i], "default") {
		end := i + len("default")
		if (i == 0 || f[i-1] == '.') && end < len(f) && (f[end] == '.' || f[end] == '[') {
			return f[:end], true
		}
	}
	return "", false
}

// rejectionSet is errorSet for a request rejected while decoding: the
// apiserver meets the malformed parts of one embedded resource (apiVersion,
// kind, metadata) in Go map order, so which of them it reports is random;
// any of them names the same embedded resource.
func rejectionSet(errs []fieldError) map[string]bool {
	s := map[string]bool{}
	for _, e := range errs {
		f := e.Field
		for _, last := range []string{".apiVersion", ".kind", ".metadata"} {
			if strings.HasSuffix(f, last) {
				f = strings.TrimSuffix(f, last) + ".<typemeta or metadata>"
				break
			}
		}
		s[e.Type+" @ "+f] = true
	}
	return s
}

// errorDiffs reports the (type, field) pairs only one side has.
func errorDiffs(verb, k string, exp, got []fieldError) []Diff {
	es, gs := errorSet(exp), errorSet(got)
	var diffs []Diff
	for _, p := range slices.Sorted(maps.Keys(es)) {
		if !gs[p] {
			t, f, _ := strings.Cut(p, " @ ")
			diffs = append(diffs, Diff{Key: k, Class: fmt.Sprintf("%s: crdschema lacks %s at %s", verb, t, normPath(f)), Text: "missing error " + p})
		}
	}
	for _, p := range slices.Sorted(maps.Keys(gs)) {
		if !es[p] {
			t, f, _ := strings.Cut(p, " @ ")
			diffs = append(diffs, Diff{Key: k, Class: fmt.Sprintf("%s: crdschema adds %s at %s", verb, t, normPath(f)), Text: "extra error " + p})
		}
	}
	return diffs
}

// compareCheck compares two check lines.
func compareCheck(k string, e, a *line) []Diff {
	var diffs []Diff
	if e.Kind != a.Kind || e.Name != a.Name {
		diffs = append(diffs, Diff{Key: k, Class: "check: kind/name differ", Text: fmt.Sprintf("oracle %s %q, crdschema %s %q", e.Kind, e.Name, a.Kind, a.Name)})
	}
	if costTie(e.Errors, a.Errors) || defaultCoercionTie(e.Errors, a.Errors) {
		return diffs
	}
	return append(diffs, errorDiffs("check", k, e.Errors, a.Errors)...)
}

// isNull reports whether a raw object is absent or null.
func isNull(r json.RawMessage) bool {
	return len(bytes.TrimSpace(r)) == 0 || string(bytes.TrimSpace(r)) == "null"
}

// compareReview compares two lines of convert --review: the objects equal
// as JSON, the same (type, field) error pairs.
func compareReview(k string, e, a *line) []Diff {
	var diffs []Diff
	eo, err1 := decodeNumbers(e.Objects)
	ao, err2 := decodeNumbers(a.Objects)
	if err1 != nil || err2 != nil {
		diffs = append(diffs, Diff{Key: k, Class: "review: undecodable objects", Text: fmt.Sprint(err1, err2)})
	} else if p, what, ok := firstDiff(eo, ao, ""); !ok {
		diffs = append(diffs, Diff{Key: k, Class: fmt.Sprintf("review: objects differ (%s) at %s", what, normPath(p)), Text: fmt.Sprintf("objects differ at %s (%s)", p, what)})
	}
	return append(diffs, errorDiffs("review", k, e.Errors, a.Errors)...)
}

// compareObject compares two lines of prune, default, apply or convert:
// the objects, the pruned lists (also of a rejected object: a read that
// fails lists what it pruned before) and the errors (of a rejected
// object, one in common).
func compareObject(verb, k string, e, a *line) []Diff {
	if isNull(e.Object) {
		if !isNull(a.Object) {
			return []Diff{{Key: k, Class: fmt.Sprintf("%s: crdschema returns an object where the oracle rejects (%s)", verb, errClass(e.Errors)), Text: fmt.Sprintf("oracle errors %v", e.Errors)}}
		}
		if len(a.Errors) == 0 {
			return []Diff{{Key: k, Class: verb + ": null object without error", Text: "crdschema has no error"}}
		}
		routing := len(e.Errors) == 1 && (e.Errors[0].Field == "kind" || e.Errors[0].Field == "apiVersion")
		if !routing && !commonRejection(e.Errors, a.Errors) {
			return []Diff{{Key: k, Class: fmt.Sprintf("%s: rejected with other errors (%s vs %s)", verb, errClass(e.Errors), errClass(a.Errors)), Text: fmt.Sprintf("oracle %v, crdschema %v", e.Errors, a.Errors)}}
		}
		// A read that fails still lists what it pruned before (convert).
		return prunedDiffs(verb+" (rejected)", k, e, a)
	}
	if isNull(a.Object) {
		return []Diff{{Key: k, Class: fmt.Sprintf("%s: crdschema rejects (%s) where the oracle returns an object", verb, errClass(a.Errors)), Text: fmt.Sprintf("crdschema errors %v", a.Errors)}}
	}
	var diffs []Diff
	eo, err1 := decodeNumbers(e.Object)
	ao, err2 := decodeNumbers(a.Object)
	if err1 != nil || err2 != nil {
		diffs = append(diffs, Diff{Key: k, Class: verb + ": undecodable object", Text: fmt.Sprint(err1, err2)})
	} else if p, what, ok := firstDiff(eo, ao, ""); !ok {
		diffs = append(diffs, Diff{Key: k, Class: fmt.Sprintf("%s: object differs (%s) at %s", verb, what, normPath(p)), Text: fmt.Sprintf("object differs at %s (%s)", p, what)})
	}
	diffs = append(diffs, prunedDiffs(verb, k, e, a)...)
	return append(diffs, errorDiffs(verb, k, e.Errors, a.Errors)...)
}

// commonRejection reports whether two rejections share an error (type
// and field): the apiserver reports whichever malformed part it meets
// first.
func commonRejection(e, a []fieldError) bool {
	es, gs := rejectionSet(e), rejectionSet(a)
	for p := range gs {
		if es[p] {
			return true
		}
	}
	return false
}

// prunedDiffs compares the pruned lists of two lines: the same paths,
// then the same order and duplicates.
func prunedDiffs(verb, k string, e, a *line) []Diff {
	var diffs []Diff
	ep, ap := normList(e.Pruned), normList(a.Pruned)
	es, as := map[string]bool{}, map[string]bool{}
	for _, p := range ep {
		es[p] = true
	}
	for _, p := range ap {
		as[p] = true
	}
	for _, p := range ep {
		if !as[p] {
			diffs = append(diffs, Diff{Key: k, Class: fmt.Sprintf("%s: crdschema does not report pruned %s", verb, normPath(p)), Text: "missing pruned " + p})
		}
	}
	for _, p := range ap {
		if !es[p] {
			diffs = append(diffs, Diff{Key: k, Class: fmt.Sprintf("%s: crdschema reports extra pruned %s", verb, normPath(p)), Text: "extra pruned " + p})
		}
	}
	if len(diffs) == 0 && !reflect.DeepEqual(ep, ap) {
		diffs = append(diffs, Diff{Key: k, Class: verb + ": pruned list order/duplicates differ", Text: fmt.Sprintf("%q vs %q", e.Pruned, a.Pruned)})
	}
	return diffs
}

func normList(l []string) []string {
	c := append([]string(nil), l...)
	sort.Strings(c)
	return c
}

// errClass summarises an error list as its sorted (type, normalised field)
// pairs.
func errClass(errs []fieldError) string {
	var l []string
	for _, e := range errs {
		l = append(l, e.Type+"@"+normPath(e.Field))
	}
	sort.Strings(l)
	return strings.Join(l, ",")
}

// decodeNumbers decodes JSON with numbers as exact rationals, so that 1 and
// 1.0 compare equal.
func decodeNumbers(r json.RawMessage) (any, error) {
	d := json.NewDecoder(bytes.NewReader(r))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return normNumbers(v), nil
}

func normNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(v))
		if !ok {
			return "number:" + string(v)
		}
		return "number:" + r.RatString()
	case map[string]any:
		for k, x := range v {
			v[k] = normNumbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = normNumbers(x)
		}
	}
	return v
}

// firstDiff returns the first path where a and b differ, and how.
func firstDiff(a, b any, path string) (string, string, bool) {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return path, "type", false
		}
		for _, k := range slices.Sorted(maps.Keys(av)) {
			if _, ok := bv[k]; !ok {
				return join(path, k), "crdschema lacks the field", false
			}
			if p, w, ok := firstDiff(av[k], bv[k], join(path, k)); !ok {
				return p, w, false
			}
		}
		for _, k := range slices.Sorted(maps.Keys(bv)) {
			if _, ok := av[k]; !ok {
				return join(path, k), "crdschema has an extra field", false
			}
		}
		return "", "", true
	case []any:
		bv, ok := b.([]any)
		if !ok {
			return path, "type", false
		}
		if len(av) != len(bv) {
			return path, "list length", false
		}
		for i := range av {
			if p, w, ok := firstDiff(av[i], bv[i], fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, w, false
			}
		}
		return "", "", true
	}
	if !reflect.DeepEqual(a, b) {
		return path, "value", false
	}
	return "", "", true
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

var bracket = regexp.MustCompile(`\[[^\]]*\]`)

// keptSegments are path segments kept verbatim by normPath; any other
// segment (a generated property name) becomes *.
var keptSegments = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`metadata spec status apiVersion kind name generateName namespace labels
	annotations finalizers ownerReferences creationTimestamp uid generation resourceVersion managedFields
	deletionGracePeriodSeconds properties items additionalProperties anyOf allOf oneOf not type default
	nullable validation openAPIV3Schema versions version schema names plural singular listKind shortNames
	scope group conversion webhook clientConfig webhookClientConfig conversionReviewVersions subresources
	scale specReplicasPath statusReplicasPath labelSelectorPath additionalPrinterColumns jsonPath JSONPath
	selectableFields preserveUnknownFields storedVersions enum pattern format required description
	minimum maximum maxLength minLength maxItems minItems multipleOf maxProperties minProperties
	uniqueItems $ref definitions dependencies id additionalItems patternProperties title example
	externalDocs url service port strategy served storage priority deprecationWarning <nil> []`) {
		keptSegments[s] = true
	}
}

// normPath normalises a field path or pruned path for grouping: indices and
// map keys become [], generated property names *, and repeated segments
// collapse.
func normPath(p string) string {
	if p == "" {
		return `""`
	}
	p = bracket.ReplaceAllString(p, "[]")
	segs := strings.Split(p, ".")
	var out []string
	for _, s := range segs {
		base := strings.TrimSuffix(s, "[]")
		for strings.HasSuffix(base, "[]") {
			base = strings.TrimSuffix(base, "[]")
		}
		if !keptSegments[base] && !strings.HasPrefix(base, "x-kubernetes-") {
			s = "*" + s[len(base):]
		}
		if len(out) > 0 && out[len(out)-1] == s {
			continue
		}
		out = append(out, s)
	}
	return strings.Join(out, ".")
}
