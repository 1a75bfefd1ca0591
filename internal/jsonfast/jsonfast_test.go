package jsonfast

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	kjson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/crdschema/crdschema/internal/shareddata"
)

// exact is the decoder the fast path must agree with.
func exact(data []byte) (any, error) {
	var v any
	err := kjson.Unmarshal(data, &v)
	return v, err
}

// agree fails the test when the fast path accepts data and disagrees with
// the exact decoder. It reports whether the fast path declined.
func agree(t testing.TB, data []byte) (declined bool) {
	t.Helper()
	got, ok := Decode(data)
	want, err := exact(data)
	if !ok {
		return true
	}
	if err != nil {
		t.Fatalf("fast path accepted %q, exact decoder failed: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast path on %q:\n got %#v\nwant %#v", data, got, want)
	}
	return false
}

var cases = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `1.0`, `1e2`, `1E+2`, `-1.5e-3`,
	`9223372036854775807`, `9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`,
	`123456789012345678901234567890`, `1e400`, `-1e400`, `1e-400`, `01`, `1.`, `.5`, `-`, `+1`,
	`"a"`, `"\u00e9\n\t\"\\\/\b\f\r"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\udc00x"`, "\"\xff\"", "\"a\xc3\"",
	"\"\x01\"", `"é"`, `{"a":1,"a":2}`, `{"a":1,"A":2}`, `{"a":[1,2,{"b":null}]}`, ` {"a" : 1 } `,
	`{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `tru`, `nul`, `{"a":1} x`, `{"a":1}{}`, ``, ` `,
	`"\u0000"`, `"\uD7FF\uE000"`, `[[[[[]]]]]`, `{"a":{"b":{"c":[true,false,null,"x",1.25]}}}`,
}

func TestDecodeCases(t *testing.T) {
	for _, c := range cases {
		agree(t, []byte(c))
	}
	// Values that must take the fast path.
	for _, c := range []string{`{"a":[1,2.5,"x",true,null,{}]}`, `123`, `"\u00e9"`, `-0`} {
		if _, ok := Decode([]byte(c)); !ok {
			t.Errorf("fast path declined %q", c)
		}
	}
}

func TestDecodeDeep(t *testing.T) {
	for _, n := range []int{MaxDepth - 1, MaxDepth, MaxDepth + 1, 20000} {
		data := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
		agree(t, data)
		data = []byte(strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n))
		agree(t, data)
	}
}

// TestDecodeCorpus compares the fast path with the exact decoder on every
// JSON file of the shared corpus, conformance batches and findings and of
// the repository's testdata.
func TestDecodeCorpus(t *testing.T) {
	var files []string
	corpus := shareddata.Optional(t, "corpus")
	conformance := shareddata.Optional(t, "conformance")
	findings := shareddata.Optional(t, "findings")
	for _, root := range []string{corpus, conformance, findings, "../../testdata", "../../schema/testdata", "../../conformance"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".yaml")) {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no JSON files")
	}
	declined, valid := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".yaml") {
			// As kubectl sends it.
			if data, err = yaml.YAMLToJSON(data); err != nil {
				continue
			}
		}
		if _, err := exact(data); err == nil {
			valid++
			if agree(t, data) {
				declined++
				t.Logf("declined %s", f)
			}
		} else {
			agree(t, data)
		}
	}
	t.Logf("fast path declined %d of %d valid JSON files (%d files)", declined, valid, len(files))
	if declined*50 > valid {
		t.Errorf("fast path declined %d of %d valid files", declined, valid)
	}
}

func FuzzDecode(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := append([]byte(nil), data...)
		agree(t, data)
		if string(in) != string(data) {
			t.Fatal("input modified")
		}
	})
}

// agreeEncode compares Encode with encoding/json.Marshal on v.
func agreeEncode(t testing.TB, v any) {
	t.Helper()
	got, ok := Encode(v)
	want, err := json.Marshal(v)
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("Encode accepted %#v, encoding/json failed: %v", v, err)
	}
	if string(got) != string(want) {
		t.Fatalf("Encode(%#v) = %s, encoding/json: %s", v, got, want)
	}
}

func TestEncode(t *testing.T) {
	for _, v := range []any{
		nil, true, false, int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64),
		0.0, math.Copysign(0, -1), 1.5, 1e20, 1e21, 1e-6, 1e-7, 123456789e-15, -1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64,
		math.Inf(1), math.NaN(), "", "a\"\\<>&\b\f\n\r\t\x00\x1f\x7f é \u2028\u2029 \xff\xc3", "\U0001F600",
		[]any{}, []any{nil, "x"}, map[string]any{}, map[string]any{"b": int64(1), "a": []any{map[string]any{"<": 1.25}}, "": nil},
		map[string]any(nil), []any(nil), int(1), uint64(2), float32(1.5),
	} {
		agreeEncode(t, v)
	}
}

func FuzzEncode(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Any string, also as a key, and any decoded value.
		agreeEncode(t, string(data))
		agreeEncode(t, map[string]any{string(data): string(data)})
		var v any
		if err := kjson.Unmarshal(data, &v); err == nil {
			agreeEncode(t, v)
		}
	})
}

// TestBoxedStringsSurviveGC: the strings Decode boxes share blocks of
// headers (box); after the decoder and the input are gone and the
// collector ran, every value still reads back, and is a plain string to
// type switches, comparisons and encoding/json.
func TestBoxedStringsSurviveGC(t *testing.T) {
	var values []any
	var want []string
	for i := range 200 {
		s := fmt.Sprintf("value-%d-%s", i, strings.Repeat("x", i%40))
		data := []byte(fmt.Sprintf(`{"a": [%q, %q, "object", ""], "b": %q}`, s, s+"!", s))
		v, ok := Decode(data)
		if !ok {
			t.Fatal("declined")
		}
		values = append(values, v)
		want = append(want, s)
	}
	runtime.GC()
	runtime.GC()
	for i, v := range values {
		m := v.(map[string]any)
		a := m["a"].([]any)
		if s, ok := a[0].(string); !ok || s != want[i] || a[1] != any(want[i]+"!") || m["b"] != any(want[i]) || a[2] != "object" || a[3] != "" {
			t.Fatalf("value %d: %#v", i, v)
		}
		b, err := json.Marshal(m["b"])
		if err != nil || string(b) != strconv.Quote(want[i]) {
			t.Fatalf("value %d: marshals as %s (%v)", i, b, err)
		}
	}
}

// Lists share blocks (items and slice headers): each list has no room to
// grow into its neighbour's items, an empty list is not nil, and they
// survive a collection as decoded.
func TestListsShareNothingVisible(t *testing.T) {
	v, ok := Decode([]byte(`{"a":[1,2],"b":[3],"c":[],"d":[[4,5],[6]]}`))
	if !ok {
		t.Fatal("declined")
	}
	runtime.GC()
	m := v.(map[string]any)
	a, b, c := m["a"].([]any), m["b"].([]any), m["c"].([]any)
	if c == nil || len(c) != 0 {
		t.Fatalf("empty list: %#v", c)
	}
	for _, l := range [][]any{a, b, c} {
		if cap(l) != len(l) {
			t.Fatalf("list %v has room: cap %d", l, cap(l))
		}
	}
	a = append(a, "x")
	a[0] = "y"
	want := map[string]any{"a": []any{int64(1), int64(2)}, "b": []any{int64(3)}, "c": []any{},
		"d": []any{[]any{int64(4), int64(5)}, []any{int64(6)}}}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("after appending to a copy of a: %#v", m)
	}
}
