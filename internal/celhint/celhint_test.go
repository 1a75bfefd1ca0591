package celhint

import (
	"fmt"
	"strings"
	"testing"
)

// show writes hints in a compact, stable form.
func show(h Hints) string {
	var parts []string
	for _, f := range h.Fields {
		parts = append(parts, "field "+f.String())
	}
	for _, v := range h.Values {
		s := "value " + v.Path.String() + "=" + fmt.Sprint(v.Value)
		if v.Size {
			s = "size " + v.Path.String() + "=" + fmt.Sprint(v.Value)
		}
		parts = append(parts, s)
	}
	for _, c := range h.Calls {
		s := "call " + c.Path.String() + "." + c.Func + fmt.Sprint(c.Args)
		if c.Part >= 0 {
			s += fmt.Sprintf(" part %q[%d]", c.Sep, c.Part)
		}
		parts = append(parts, s)
	}
	for _, s := range h.Same {
		parts = append(parts, "same "+s[0].String()+"="+s[1].String())
	}
	return strings.Join(parts, "; ")
}

func TestParse(t *testing.T) {
	tests := []struct{ rule, want string }{
		{"self.metadata.name == 'cluster'", "field metadata.name; value metadata.name=cluster"},
		{"has(self.policyType) && self.policyType == 'PublicKey' ? has(self.publicKey) : !has(self.publicKey)",
			"field policyType; field publicKey; value policyType=PublicKey"},
		{"self.all(x, x.operator == 'Gt' ? x.values.size() == 1 && int(x.values[0]) >= 0 : true)",
			"field *.operator; field *.values; value *.operator=Gt; size *.values=1; value *.values.*=0"},
		{"string(self).startsWith('-----BEGIN')", "call .startsWith[-----BEGIN]"},
		{"self.split('@').size() == 2 && self.split('@')[1].matches('^sha256:[a-f0-9]{64}$')",
			"call .split[@]; call .matches[^sha256:[a-f0-9]{64}$] part \"@\"[1]"},
		{"isURL(self) && duration(self.interval) > duration('1ms')", "field interval; call .isURL[]; call interval.duration[]"},
		{"self.spec.node.name == self.metadata.name", "field spec.node.name; field metadata.name; same spec.node.name=metadata.name"},
		{"[has(self.a), has(self.b)].filter(x, x).size() <= 1", "field a; field b"},
		{"!has(self.sts) || self.sts.provider in ['aws', 'ldap']", "field sts; field sts.provider; value sts.provider=aws; value sts.provider=ldap"},
		{"'machine.openshift.io/cluster-api-cluster' in self", "call .hasKey[machine.openshift.io/cluster-api-cluster]"},
		{"!has(self.minReplicaCount) || self.minReplicaCount <= (has(self.maxReplicaCount) ? self.maxReplicaCount : 100)",
			"field minReplicaCount; field maxReplicaCount"},
		{"self.all(k, self[k] > 0)", "value *=0"},
		{"self.plural == self.plural.lowerAscii() && self.t.trim().upperAscii() != ''", "field plural; field t; value t=; call plural.lowerAscii[]; call t.upperAscii[]; call t.trim[]; same plural=plural"},
	}
	for _, tt := range tests {
		h, ok := Parse(tt.rule)
		if !ok {
			t.Errorf("%s: does not parse", tt.rule)
			continue
		}
		if got := show(h); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.rule, got, tt.want)
		}
	}
	if _, ok := Parse("self.a ==="); ok {
		t.Error("a rule that does not parse gave hints")
	}
	h, _ := Parse("self.x <= 100 && self.y == 'a'")
	if fmt.Sprint(h.Numbers, h.Strings) != "[100] [a]" {
		t.Errorf("literals %v %v", h.Numbers, h.Strings)
	}
}
