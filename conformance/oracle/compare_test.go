package oracle_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompareOutputs checks that the replay comparison finds what it must.
func TestCompareOutputs(t *testing.T) {
	const obj = `{"file":"o.yaml","document":0,"object":{"a":1,"b":[1.5]},"pruned":["x"],"errors":[{"type":"FieldValueInvalid","field":"a","detail":"bad"}]}`
	for _, tc := range []struct {
		name       string
		check      bool
		want, got  string
		mismatches int
		details    int
		cel        int
	}{
		{name: "same", want: obj, got: obj},
		{name: "numbers by value", want: obj, got: strings.Replace(obj, `"a":1,`, `"a":1.0,`, 1)},
		{name: "object", want: obj, got: strings.Replace(obj, `"a":1,`, `"a":2,`, 1), mismatches: 1},
		{name: "pruned", want: obj, got: strings.Replace(obj, `["x"]`, `["x","y"]`, 1), mismatches: 1},
		{name: "error type", want: obj, got: strings.Replace(obj, `FieldValueInvalid`, `FieldValueRequired`, 1), mismatches: 1},
		{name: "detail", want: obj, got: strings.Replace(obj, `"bad"`, `"worse"`, 1), details: 1},
		{name: "missing", want: obj, got: ``, mismatches: 1},
		{name: "extra", want: obj, got: obj + "\n" + strings.Replace(obj, `"document":0`, `"document":1`, 1), mismatches: 1},
		{
			name:    "routing needs only an error",
			want:    `{"file":"o.yaml","document":0,"object":null,"pruned":[],"errors":[{"type":"FieldValueNotFound","field":"kind","detail":"x"}]}`,
			got:     `{"file":"o.yaml","document":0,"object":null,"pruned":[],"errors":[{"type":"FieldValueRequired","field":"apiVersion","detail":"x"}]}`,
			details: 0,
		},
		{
			name:       "rejection needs a common error",
			want:       `{"file":"o.yaml","document":0,"object":null,"pruned":[],"errors":[{"type":"FieldValueInvalid","field":"spec.a.kind","detail":"x"},{"type":"FieldValueInvalid","field":"spec.b.kind","detail":"x"}]}`,
			got:        `{"file":"o.yaml","document":0,"object":null,"pruned":[],"errors":[{"type":"FieldValueInvalid","field":"spec.c.kind","detail":"x"}]}`,
			mismatches: 1,
		},
		{
			name: "rejection with one of the errors",
			want: `{"file":"o.yaml","document":0,"object":null,"pruned":[],"errors":[{"type":"FieldValueInvalid","field":"spec.a.kind","detail":"x"},{"type":"FieldValueInvalid","field":"spec.b.kind","detail":"x"}]}`,
			got:  `{"file":"o.yaml","document":0,"object":null,"pruned":[],"errors":[{"type":"FieldValueInvalid","field":"spec.b.kind","detail":"x"}]}`,
		},
		{
			name:       "check kind",
			check:      true,
			want:       `{"file":"c.yaml","document":0,"kind":"Schema","name":"","errors":[]}`,
			got:        `{"file":"c.yaml","document":0,"kind":"CustomResourceDefinition","name":"","errors":[]}`,
			mismatches: 1,
		},
		{
			name:  "CEL compilation details",
			check: true,
			want:  `{"file":"c.yaml","document":0,"kind":"Schema","name":"","errors":[{"type":"FieldValueInvalid","field":"x","detail":"compilation failed: type_1"}]}`,
			got:   `{"file":"c.yaml","document":0,"kind":"Schema","name":"","errors":[{"type":"FieldValueInvalid","field":"x","detail":"compilation failed: type_2"}]}`,
			cel:   1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			tl := compareOutputs(tc.check, []byte(tc.want), []byte(tc.got), func(f string, args ...interface{}) {
				log = append(log, fmt.Sprintf(f, args...))
			})
			if tl.Mismatches != tc.mismatches || tl.Details != tc.details || tl.CELDetails != tc.cel {
				t.Errorf("got %v, want %d mismatches, %d detail and %d CEL differences; log:\n%s", tl, tc.mismatches, tc.details, tc.cel, strings.Join(log, "\n"))
			}
		})
	}
}
