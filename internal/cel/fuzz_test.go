package cel

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
)

// fuzzSchema has rules of every kind: transition rules, optionalOldSelf,
// messageExpression, fieldPath, reason, library functions, a quadratic
// rule on an unbounded list, rules in map values and list items.
const fuzzSchema = `{"type":"object","properties":{
 "spec":{"type":"object","properties":{
  "name":{"type":"string","x-kubernetes-validations":[{"rule":"self.matches('^[a-z]*$')","messageExpression":"'bad name ' + self"}]},
  "n":{"type":"integer","x-kubernetes-validations":[{"rule":"self >= oldSelf","message":"no decrease"}]},
  "q":{"x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"type(self) == int || quantity(self).isGreaterThan(quantity('0'))"}]},
  "l":{"type":"array","items":{"type":"string"},"x-kubernetes-validations":[{"rule":"self.all(a, self.all(b, a.size() <= b.size() + 100))"}]},
  "m":{"type":"object","additionalProperties":{"type":"string","x-kubernetes-validations":[{"rule":"isURL(self) || self.size() < 3","reason":"FieldValueForbidden"}]}},
  "ml":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer"}},
    "x-kubernetes-validations":[{"rule":"!has(oldSelf.v) || !has(self.v) || self.v >= oldSelf.v","fieldPath":".v"}]}}
 },"x-kubernetes-validations":[{"rule":"!has(oldSelf.name) || has(self.name)","optionalOldSelf":true},{"rule":"has(self.name) || !has(self.n)","reason":"FieldValueRequired","message":"name needed with n"}]}
},"x-kubernetes-validations":[{"rule":"self.metadata.name.size() < 64"}]}`

// FuzzValidate evaluates the rules on arbitrary objects (new and old): no
// panic, the budget is never exceeded silently, and a Validator is reusable.
func FuzzValidate(f *testing.F) {
	f.Add([]byte(`{"metadata":{"name":"x"},"spec":{"name":"abc","n":1,"l":["a"],"m":{"a":"https://x"},"ml":[{"k":"a","v":1}],"q":"1Gi"}}`),
		[]byte(`{"metadata":{"name":"x"},"spec":{"n":2,"ml":[{"k":"a","v":2}]}}`), int64(0))
	f.Add([]byte(`{"spec":{"l":["a","b","c","d","e","f","g","h","i","j","k"]}}`), []byte(`null`), int64(50))
	f.Add([]byte(`{"spec":{"q":3,"name":"A B"}}`), []byte(`{"spec":{"name":"x"}}`), int64(-1))
	s := mustSchema(f, fuzzSchema)
	v := NewValidator(s, true, nil)
	f.Fuzz(func(t *testing.T, obj, old []byte, budget int64) {
		var o, od any
		if kjson.Unmarshal(obj, &o) != nil {
			return
		}
		if kjson.Unmarshal(old, &od) != nil {
			od = nil
		}
		before, _ := json.Marshal(o)
		if budget <= 0 || budget > RuntimeCostBudget {
			budget = RuntimeCostBudget
		}
		errs, rem := v.Validate(context.Background(), o, od, Options{Budget: budget, Ratcheting: od != nil})
		if rem > budget {
			t.Fatalf("remaining budget %d above the budget %d", rem, budget)
		}
		if rem < 0 {
			last := errs[len(errs)-1].Detail
			if !strings.Contains(last, "cost") && !strings.Contains(last, "budget") {
				t.Fatalf("budget ran out without saying so: %q", last)
			}
		}
		after, _ := json.Marshal(o)
		if string(before) != string(after) {
			t.Fatalf("Validate changed the object")
		}
	})
}
