package cel

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/cel-go/common/decls"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/model"
	"github.com/crdschema/crdschema/structural"
)

// mustSchema builds the structural model of a JSON schema.
func mustSchema(t testing.TB, js string) *structural.Schema {
	t.Helper()
	var p model.Props
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustJSON(t testing.TB, js string) any {
	t.Helper()
	if js == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return normalizeNumbers(v)
}

// normalizeNumbers turns float64 holding integers into int64, as the
// apiserver's decoder does.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	case float64:
		if x == float64(int64(x)) {
			return int64(x)
		}
	}
	return v
}

func render(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%s %s: %s", string(e.Type), e.Field, e.Detail))
	}
	return out
}

func TestValidate(t *testing.T) {
	const spec = `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"replicas":{"type":"integer"},"name":{"type":"string","maxLength":20},
		"mode":{"type":"string","maxLength":10},
		"items":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10}}},
		"x-kubernetes-validations":[%s]}}}`
	for _, tc := range []struct {
		name, rules, obj, old string
		ratchet               bool
		want                  []string
	}{
		{name: "passing rule", rules: `{"rule":"self.replicas >= 0"}`, obj: `{"spec":{"replicas":1}}`},
		{name: "failing rule, default message", rules: `{"rule":"self.replicas >= 0"}`, obj: `{"spec":{"replicas":-1}}`,
			want: []string{"FieldValueInvalid spec: failed rule: self.replicas >= 0"}},
		{name: "message", rules: `{"rule":"self.replicas >= 0","message":" must not be negative "}`, obj: `{"spec":{"replicas":-1}}`,
			want: []string{"FieldValueInvalid spec: must not be negative"}},
		{name: "messageExpression", rules: `{"rule":"self.replicas >= 0","messageExpression":"'replicas is ' + string(self.replicas)"}`, obj: `{"spec":{"replicas":-1}}`,
			want: []string{"FieldValueInvalid spec: replicas is -1"}},
		{name: "messageExpression empty falls back", rules: `{"rule":"self.replicas >= 0","message":"m","messageExpression":"' '"}`, obj: `{"spec":{"replicas":-1}}`,
			want: []string{"FieldValueInvalid spec: m"}},
		{name: "messageExpression with a line break falls back", rules: `{"rule":"self.replicas >= 0","messageExpression":"'a\\nb'"}`, obj: `{"spec":{"replicas":-1}}`,
			want: []string{"FieldValueInvalid spec: failed rule: self.replicas >= 0"}},
		{name: "messageExpression error falls back", rules: `{"rule":"self.replicas >= 0","message":"m","messageExpression":"self.name"}`, obj: `{"spec":{"replicas":-1}}`,
			want: []string{"FieldValueInvalid spec: m"}},
		{name: "reason and fieldPath", rules: `{"rule":"self.replicas >= 0","message":"m","reason":"FieldValueForbidden","fieldPath":".replicas"}`, obj: `{"spec":{"replicas":-1}}`,
			want: []string{"FieldValueForbidden spec.replicas: m"}},
		{name: "reason required", rules: `{"rule":"has(self.name)","message":"name needed","reason":"FieldValueRequired"}`, obj: `{"spec":{}}`,
			want: []string{"FieldValueRequired spec: name needed"}},
		{name: "runtime error", rules: `{"rule":"self.name == 'x'"}`, obj: `{"spec":{}}`,
			want: []string{"FieldValueInvalid spec: no such key: name evaluating rule: self.name == 'x'"}},
		{name: "transition rule skipped on create", rules: `{"rule":"self.replicas >= oldSelf.replicas"}`, obj: `{"spec":{"replicas":1}}`},
		{name: "transition rule on update", rules: `{"rule":"self.replicas >= oldSelf.replicas","message":"no scaling down"}`,
			obj: `{"spec":{"replicas":1}}`, old: `{"spec":{"replicas":2}}`,
			want: []string{"FieldValueInvalid spec: no scaling down"}},
		{name: "optionalOldSelf on create", rules: `{"rule":"!oldSelf.hasValue() || self.mode == oldSelf.value().mode","optionalOldSelf":true,"message":"immutable"}`,
			obj: `{"spec":{"mode":"a"}}`},
		{name: "optionalOldSelf on update", rules: `{"rule":"!oldSelf.hasValue() || self.mode == oldSelf.value().mode","optionalOldSelf":true,"message":"immutable"}`,
			obj: `{"spec":{"mode":"a"}}`, old: `{"spec":{"mode":"b"}}`,
			want: []string{"FieldValueInvalid spec: immutable"}},
		{name: "ratcheting keeps an unchanged invalid value", rules: `{"rule":"self.replicas >= 0"}`,
			obj: `{"spec":{"replicas":-1}}`, old: `{"spec":{"replicas":-1}}`, ratchet: true},
		{name: "ratcheting reports a changed invalid value", rules: `{"rule":"self.replicas >= 0"}`,
			obj: `{"spec":{"replicas":-2}}`, old: `{"spec":{"replicas":-1}}`, ratchet: true,
			want: []string{"FieldValueInvalid spec: failed rule: self.replicas >= 0"}},
		{name: "library functions", rules: `{"rule":"self.name.matches('^[a-z]+$') && isURL('https://x.example') && quantity('1Gi').isGreaterThan(quantity('1Mi')) && isIP('10.0.0.1') && self.items.isSorted()"}`,
			obj: `{"spec":{"name":"abc","items":["a","b"]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewValidator(mustSchema(t, fmt.Sprintf(spec, tc.rules)), true, nil)
			errs, _ := v.Validate(context.Background(), mustJSON(t, tc.obj), mustJSON(t, tc.old), Options{Ratcheting: tc.ratchet})
			if got := render(errs); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestValidateCostLimits checks the per-call limit and the budget: an
// expensive rule on a large list stops further rules.
func TestValidateCostLimits(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},
		"x-kubernetes-validations":[{"rule":"self.all(a, self.all(b, a.size() >= 0))"},{"rule":"false","message":"second"}]}}}`)
	items := make([]any, 2000)
	for i := range items {
		items[i] = "x"
	}
	v := NewValidator(s, true, nil)
	errs, rem := v.Validate(context.Background(), map[string]any{"l": items}, nil, Options{})
	if rem >= 0 || len(errs) != 1 || !strings.Contains(errs[0].Detail, "call cost exceeds limit") {
		t.Errorf("per-call limit: remaining %d, errors %q", rem, render(errs))
	}
	errs, rem = v.Validate(context.Background(), map[string]any{"l": items[:10]}, nil, Options{Budget: 5})
	if rem >= 0 || len(errs) != 1 || !strings.Contains(errs[0].Detail, "running out of cost budget") {
		t.Errorf("budget: remaining %d, errors %q", rem, render(errs))
	}
}

func TestNoRulesNoValidator(t *testing.T) {
	if v := NewValidator(mustSchema(t, `{"type":"object","properties":{"a":{"type":"string"}}}`), true, nil); v != nil {
		t.Errorf("NewValidator without rules = %v, want nil", v)
	}
	var v *Validator
	if errs, _ := v.Validate(context.Background(), map[string]any{}, nil, Options{}); errs != nil {
		t.Errorf("nil Validator: %v", errs)
	}
}

var selfTypeName = regexp.MustCompile(`selfType[0-9]+`)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		want         []string
	}{
		{name: "compile error", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.nosuch == 1"}]}`,
			want: []string{"FieldValueInvalid r.x-kubernetes-validations[0].rule: compilation failed: ERROR: <input>:1:5: undefined field 'nosuch'\n | self.nosuch == 1\n | ....^"}},
		{name: "not a bool", schema: `{"type":"object","x-kubernetes-validations":[{"rule":"1"}]}`,
			want: []string{"FieldValueInvalid r.x-kubernetes-validations[0].rule: cel expression must evaluate to a bool"}},
		{name: "messageExpression not a string", schema: `{"type":"object","x-kubernetes-validations":[{"rule":"true","messageExpression":"1"}]}`,
			want: []string{"FieldValueInvalid r.x-kubernetes-validations[0].messageExpression: messageExpression must evaluate to a string"}},
		{name: "optionalOldSelf without oldSelf", schema: `{"type":"object","x-kubernetes-validations":[{"rule":"true","optionalOldSelf":true}]}`,
			want: []string{"FieldValueInvalid r.x-kubernetes-validations[0].optionalOldSelf: may not be set if oldSelf is not used in rule"}},
		{name: "oldSelf in a string literal or as a field name", schema: `{"type":"object","properties":{"oldSelf":{"type":"string","maxLength":5}},"x-kubernetes-validations":[{"rule":"self.oldSelf != 'oldSelf'","optionalOldSelf":true}]}`,
			want: []string{"FieldValueInvalid r.x-kubernetes-validations[0].optionalOldSelf: may not be set if oldSelf is not used in rule"}},
		{name: "cost of an unbounded list", schema: `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string"},"x-kubernetes-validations":[{"rule":"self.all(a, self.all(b, a == b))"}]}}}`,
			want: []string{
				"FieldValueForbidden r.properties[l].x-kubernetes-validations[0].rule: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
				"FieldValueForbidden r.properties[l].x-kubernetes-validations[0].rule: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
				"FieldValueForbidden r: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p model.Props
			if err := json.Unmarshal([]byte(tc.schema), &p); err != nil {
				t.Fatal(err)
			}
			s, err := structural.New(&p)
			if err != nil {
				t.Fatal(err)
			}
			sc := NewSchemaCheck(&p, s)
			root := field.NewPath("r")
			var errs field.ErrorList
			// A one-level walk: the root, then its properties.
			errs = append(errs, sc.Root().Check(root, p.XValidations, nil)...)
			for k, c := range p.Properties {
				errs = append(errs, sc.Root().Property(k).Check(root.Child("properties").Key(k), c.XValidations, nil)...)
			}
			errs = append(errs, sc.Finish(root)...)
			got := render(errs)
			for i := range got {
				got[i] = selfTypeName.ReplaceAllString(got[i], "selfType")
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestValidateConcurrent shares one Validator between goroutines (run
// with -race).
func TestValidateConcurrent(t *testing.T) {
	v := NewValidator(mustSchema(t, fuzzSchema), true, nil)
	obj := mustJSON(t, `{"metadata":{"name":"x"},"spec":{"name":"A","n":1,"l":["a"],"m":{"a":"b c"},"ml":[{"k":"a","v":1}]}}`)
	old := mustJSON(t, `{"metadata":{"name":"x"},"spec":{"name":"a","n":2,"ml":[{"k":"a","v":2}]}}`)
	want, _ := v.Validate(context.Background(), obj, old, Options{Ratcheting: true})
	if len(want) == 0 {
		t.Fatal("expected errors")
	}
	done := make(chan string)
	for range 16 {
		go func() {
			errs, _ := v.Validate(context.Background(), obj, old, Options{Ratcheting: true})
			done <- strings.Join(render(errs), "\n")
		}()
	}
	for range 16 {
		if got := <-done; got != strings.Join(render(want), "\n") {
			t.Errorf("concurrent result differs:\n%s\nwant\n%s", got, render(want))
		}
	}
}

// TestCachedValidator checks that validators sharing a CompileCache
// evaluate as uncached ones: equal rules on nodes of different types keep
// their own results, nodes of the same type at different places report at
// their own paths, and a validator of a subtree built after the root's
// (as for defaults) reuses the root's results.
func TestCachedValidator(t *testing.T) {
	intObj := `{"type":"object","properties":{"x":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.x == 1","messageExpression":"'x is ' + string(self.x)"}]}`
	strObj := `{"type":"object","properties":{"x":{"type":"string"}},"x-kubernetes-validations":[{"rule":"self.x == 1","messageExpression":"'x is ' + string(self.x)"}]}`
	// d's rule compiles only in the stored expressions' environment
	// (list.includes), which the runtime compiles with.
	s := mustSchema(t, `{"type":"object","properties":{"a":`+intObj+`,"b":`+strObj+`,"c":`+intObj+
		`,"l":{"type":"array","items":`+intObj+`},"d":{"type":"integer","x-kubernetes-validations":[{"rule":"[1, 2].includes(self)"}]}}}`)
	obj := mustJSON(t, `{"a":{"x":1},"b":{"x":"1"},"c":{"x":2},"l":[{"x":1},{"x":3}],"d":3}`)
	cache := NewCompileCache()
	for _, tc := range []struct {
		name         string
		s            *structural.Schema
		resourceRoot bool
		obj          any
	}{
		{"root", s, true, obj},
		{"root again", s, true, obj},
		{"a", s.Properties["a"], false, obj.(map[string]any)["a"]},
		{"b", s.Properties["b"], false, obj.(map[string]any)["b"]},
		{"c", s.Properties["c"], false, obj.(map[string]any)["c"]},
		{"l", s.Properties["l"], false, obj.(map[string]any)["l"]},
	} {
		want, _ := NewValidator(tc.s, tc.resourceRoot, nil).Validate(context.Background(), tc.obj, nil, Options{})
		got, _ := NewValidator(tc.s, tc.resourceRoot, cache).Validate(context.Background(), tc.obj, nil, Options{})
		g, w := render(got), render(want)
		for i := range g {
			g[i] = selfTypeName.ReplaceAllString(g[i], "selfType")
		}
		for i := range w {
			w[i] = selfTypeName.ReplaceAllString(w[i], "selfType")
		}
		if strings.Join(g, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s: cached\n%s\nuncached\n%s", tc.name, strings.Join(g, "\n"), strings.Join(w, "\n"))
		}
		if tc.name == "root" && (len(w) < 4 || !strings.Contains(strings.Join(w, "\n"), "d: failed rule")) {
			t.Errorf("root: want errors at b, c, d and l[1], got %q", w)
		}
	}
}

// TestStoredEnvHoldsNew checks what validators sharing a CRD check's
// compile results rely on (vnodeBuilder.compile): every function and
// macro of the new expressions' environment is in the stored
// expressions' with the same overloads, so that a rule compiling in the
// former compiles to the same checked expression in the latter. A revision
// of the environments' options that breaks this must change that sharing.
func TestStoredEnvHoldsNew(t *testing.T) {
	newEnv, err := baseEnv(newExpressions)
	if err != nil {
		t.Fatal(err)
	}
	storedEnv, err := baseEnv(storedExpressions)
	if err != nil {
		t.Fatal(err)
	}
	stored := storedEnv.Functions()
	for name, fn := range newEnv.Functions() {
		sfn, ok := stored[name]
		if !ok {
			t.Errorf("function %s is not in the stored expressions' environment", name)
			continue
		}
		nos, sos := fn.OverloadDecls(), sfn.OverloadDecls()
		if len(nos) != len(sos) {
			t.Errorf("function %s: %d overloads, %d in the stored expressions' environment", name, len(nos), len(sos))
			continue
		}
		// The order of overloads does not matter: the checker joins the
		// result types of all that match, the cost estimate takes the
		// largest, the runtime dispatches on the arguments' types.
		byID := map[string]*decls.OverloadDecl{}
		for _, o := range sos {
			byID[o.ID()] = o
		}
		for _, o := range nos {
			if so, ok := byID[o.ID()]; !ok || !o.SignatureEquals(so) {
				t.Errorf("function %s: overload %s differs in the stored expressions' environment", name, o.ID())
			}
		}
	}
	macros := map[string]bool{}
	for _, m := range storedEnv.Macros() {
		macros[m.MacroKey()] = true
	}
	for _, m := range newEnv.Macros() {
		if !macros[m.MacroKey()] {
			t.Errorf("macro %s is not in the stored expressions' environment", m.MacroKey())
		}
	}
	if !slices.Equal(declNames(newEnv.Variables()), declNames(storedEnv.Variables())) {
		t.Errorf("variables differ")
	}
}

func declNames(vs []*decls.VariableDecl) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name())
	}
	slices.Sort(out)
	return out
}
