package embedded_test

import (
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/embedded"
	"github.com/crdschema/crdschema/internal/jsonfast"
)

// Metadata that coercion keeps in place (embedded.AsWritten) is exactly
// what the round trip through ObjectMeta gives back; metadata it would
// change is not kept.
func TestAsWrittenIsRoundTrip(t *testing.T) {
	cases := []struct {
		json string
		kept bool
	}{
		{`{"name":"a","namespace":"ns","uid":"u","resourceVersion":"1","generation":3,"creationTimestamp":"2024-01-02T03:04:05Z","labels":{"a":"b"},"annotations":{"x":"y"},"finalizers":["f"]}`, true},
		{`{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":false,"blockOwnerDeletion":true}]}`, true},
		{`{"managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1","time":"2024-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]}`, true},
		{`{"deletionGracePeriodSeconds":0,"deletionTimestamp":"2024-01-02T03:04:05Z"}`, true},
		{`{}`, true},
		{`{"name":""}`, false},
		{`{"generation":0}`, false},
		{`{"generation":1.0}`, false},
		{`{"creationTimestamp":"2024-01-02T03:04:05.5Z"}`, false},
		{`{"creationTimestamp":"2024-01-02T03:04:05+01:00"}`, false},
		{`{"creationTimestamp":"0001-01-01T00:00:00Z"}`, false},
		{`{"deletionTimestamp":"0001-01-01T00:00:00Z"}`, false},
		{`{"creationTimestamp":"2024-02-30T03:04:05Z"}`, false},
		{`{"creationTimestamp":null}`, false},
		{`{"labels":{}}`, false},
		{`{"labels":{"a":null}}`, false},
		{`{"labels":{"a":1}}`, false},
		{`{"finalizers":[]}`, false},
		{`{"finalizers":[null]}`, false},
		{`{"unknown":1}`, false},
		{`{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n"}]}`, false},
		{`{"ownerReferences":[null]}`, false},
		{`{"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","extra":1}]}`, false},
		{`{"managedFields":[{"time":"2024-01-02T03:04:05.000Z"}]}`, false},
		{`{"managedFields":[{"fieldsV1":null}]}`, false},
		{`{"managedFields":[]}`, false},
		{`{"deletionGracePeriodSeconds":null}`, false},
		{`{"generation":"1"}`, false},
	}
	for _, c := range cases {
		v, ok := jsonfast.Decode([]byte(c.json))
		if !ok {
			t.Fatalf("%s: does not decode", c.json)
		}
		m := v.(map[string]any)
		got := embedded.AsWritten(m)
		if got != c.kept {
			t.Errorf("%s: kept %v, want %v", c.json, got, c.kept)
		}
		out, unknown, err := embedded.RoundTripObjectMeta(m, true)
		same := err == nil && len(unknown) == 0 && reflect.DeepEqual(out, m)
		if got && !same {
			t.Errorf("%s: kept, but the round trip gives %v %v %v", c.json, out, unknown, err)
		}
		if !got && same {
			t.Errorf("%s: not kept, but the round trip gives it back", c.json)
		}
	}
}
