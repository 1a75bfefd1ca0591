package main

import (
	"reflect"
	"testing"
	"time"
)

// TestParseArgs pins the command line grammar every verb shares: flags
// anywhere among the operands, "--" ending the flags, "-" an operand, a
// flag's value after "=" or as the next argument, and the errors naming
// the flag as written.
func TestParseArgs(t *testing.T) {
	o, err := parseArgs("apply", []string{"a.yaml", "--crd", "c.yaml", "-o=json", "-", "--strict", "--timeout", "2s", "--crd=d", "--", "--old", "-x"})
	if err != nil {
		t.Fatal(err)
	}
	want := &options{output: "json", crds: []string{"c.yaml", "d"}, strict: true, operands: []string{"a.yaml", "-", "--old", "-x"}, maxInput: defaultMaxInput, timeout: 2 * time.Second}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("got %+v\nwant %+v", o, want)
	}
	o, err = parseArgs("apply", []string{"--schema", "s.yaml", "--subresource=status", "--strict=false", "--max-input-bytes", "1Ki", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !o.schemaSet || !o.subresourceSet || o.strict || o.maxInput != 1024 || o.schema != "s.yaml" {
		t.Errorf("got %+v", o)
	}
	// check takes --old too (issue 24): repeatable, among the operands.
	o, err = parseArgs("check", []string{"--old", "stored.yaml", "new.yaml", "--old=more/", "--skip-non-crds"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"stored.yaml", "more/"}; !reflect.DeepEqual(o.olds, want) || !reflect.DeepEqual(o.operands, []string{"new.yaml"}) || !o.skipNonCRDs {
		t.Errorf("check --old: got %+v, want olds %q", o, want)
	}
	for _, c := range []struct {
		verb string
		args []string
		want string
	}{
		{"prune", []string{"--strict", "x"}, "unknown flag --strict"},
		{"check", []string{"--crd", "x"}, "unknown flag --crd"},
		{"apply", []string{"x", "--crd"}, "flag --crd needs a value"},
		{"apply", []string{"--strict=maybe"}, `flag --strict takes true or false, not "maybe"`},
		{"check", []string{"--max-input-bytes", "lots"}, "flag --max-input-bytes: want a size in bytes such as 3000000, 64Mi or 1G"},
		{"check", []string{"--timeout=-1s"}, `flag --timeout: want a duration such as 30s or 2m, not "-1s"`},
		{"check", []string{"---o", "json"}, "unknown flag ---o"},
		{"check", []string{"x", "--old"}, "flag --old needs a value"},
		{"prune", []string{"--old", "s.yaml", "x"}, "unknown flag --old"},
	} {
		_, err := parseArgs(c.verb, c.args)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s %q: error %v, want %s", c.verb, c.args, err, c.want)
		}
	}
	for _, h := range []string{"-h", "--help", "-help"} {
		if _, err := parseArgs("check", []string{"x", h}); err != errHelp {
			t.Errorf("%s: error %v, want errHelp", h, err)
		}
	}
}
