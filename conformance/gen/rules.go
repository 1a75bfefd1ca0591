package gen

import (
	"maps"
	"slices"
)

// rules adds x-kubernetes-validations rules suited to s: rules that pass
// and fail on typical values, transition rules (oldSelf, optionalOldSelf),
// messages and messageExpressions (some failing at runtime), reasons,
// fieldPaths, the Kubernetes library functions, rules whose estimated cost
// is too high on unbounded lists and maps, and a few that do not compile.
func (g *Gen) rules(s Schema) {
	n := 1
	if g.chance(0.3) {
		n = 2
	}
	var list []any
	for range n {
		r := map[string]any{"rule": g.ruleFor(s)}
		if r["rule"] == "" {
			continue
		}
		switch g.r.Intn(6) {
		case 0:
			r["message"] = pick[any](g, "must be valid", "rule failed", "too big", " padded message ")
		case 1:
			r["messageExpression"] = pick[any](g, "'got ' + string(self)", "'bad value'", "''", "'a\\nb'", "self.nosuch", "1", "string(self) + ' is wrong'")
			if g.chance(0.5) {
				r["message"] = "fallback message"
			}
		}
		if g.chance(0.15) {
			r["reason"] = pick[any](g, "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate", "FieldValueInvalid")
		}
		if props, ok := s["properties"].(map[string]any); ok && len(props) > 0 && g.chance(0.2) {
			k := pick(g, slices.Sorted(maps.Keys(props))...)
			r["fieldPath"] = pick(g, "."+k, "['"+k+"']", ".nosuch")
		}
		if g.chance(0.1) {
			r["optionalOldSelf"] = pick[any](g, true, false)
		}
		list = append(list, r)
	}
	if len(list) > 0 {
		s["x-kubernetes-validations"] = list
	}
}

// ruleFor returns a rule for the type of s.
func (g *Gen) ruleFor(s Schema) string {
	if g.chance(0.05) {
		// Compile errors of every kind.
		return pick(g, "self.nosuchfield == 1", "self >", "1 + 1", "self == oldSelf && self.nosuch", "unknownFunction(self)")
	}
	if g.chance(0.08) {
		return pick(g, "self == oldSelf", "oldSelf == self || true", "!has(oldSelf.x) || true")
	}
	if s["x-kubernetes-int-or-string"] == true {
		return pick(g, "type(self) == int || self.size() > 0", "type(self) == string ? self.endsWith('%') : self >= 0", "int(string(self)) >= 0")
	}
	switch s["type"] {
	case "string":
		return pick(g, "self.size() < 5", "self.size() >= 1", "self.matches('^[a-z0-9.-]*$')", "self.startsWith('x')",
			"isURL(self) || self.size() < 4", "isIP(self) || !self.contains('.')", "self.lowerAscii() == self",
			"quantity(self).isGreaterThan(quantity('1'))", "self == 'x' || self == 'web'",
			"format.dns1123Label().validate(self).hasValue() == false", "isCIDR(self) || true",
			"self.split('.').size() <= 2", "isSemver(self) || self.size() > 0")
	case "integer":
		return pick(g, "self >= 0", "self % 2 == 0", "self < 100", "self / (self - self) == 1", "self <= 3 || self > 10", "int(string(self)) == self")
	case "number":
		return pick(g, "self >= 0.0", "self > 0.5", "self < 100.0", "double(int(self)) == self")
	case "boolean":
		return pick(g, "self", "!self", "self == true || self == false")
	case "array":
		items, _ := s["items"].(Schema)
		r := []string{"self.size() <= 2", "self.size() >= 1", "self.all(x, x == x)", "self.exists(x, true) || self.size() == 0",
			"self.all(a, self.all(b, a == b))", "self.map(x, x).size() == self.size()", "self == self.filter(x, true)"}
		if t := items["type"]; t == "string" || t == "integer" {
			r = append(r, "self.isSorted()", "self.all(x, self.exists_one(y, y == x))", "self.sum() == self.sum()")
			if t == "string" {
				r = append(r, "self.all(x, x.size() < 10)", "self.join('').size() < 20")
			} else {
				r = append(r, "self.all(x, x >= 0)", "self.sum() < 10")
			}
		}
		return pick(g, r...)
	case "object", nil:
		props, _ := s["properties"].(map[string]any)
		if len(props) > 0 {
			k := pick(g, slices.Sorted(maps.Keys(props))...)
			if !isIdent(k) {
				return "has(self.nosuch) || true"
			}
			return pick(g, "has(self."+k+")", "!has(self."+k+") || self."+k+" == self."+k, "size(self) >= 0",
				"has(self."+k+") || self.size() == 0")
		}
		if ap, ok := s["additionalProperties"].(Schema); ok {
			r := []string{"self.size() <= 2", "self.all(k, k.size() < 10)", "self.all(k, self.all(j, k == j))"}
			if ap["type"] == "string" {
				r = append(r, "self.all(k, self[k].size() < 5)")
			}
			return pick(g, r...)
		}
		return pick(g, "true", "self == self")
	}
	return ""
}

func isIdent(k string) bool {
	if k == "" || (k[0] >= '0' && k[0] <= '9') {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	switch k {
	case "in", "as", "break", "const", "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "true", "false", "null":
		return false
	}
	return true
}
