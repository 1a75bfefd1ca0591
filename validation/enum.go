package validation

import (
	"encoding/json"
	"fmt"
	"unsafe"

	"k8s.io/apimachinery/pkg/util/validation/field"
	openapierrors "k8s.io/kube-openapi/pkg/validation/errors"
)

// enumError is a value that is none of its schema's enum values, as the
// engine's EnumFail reports it, except that the engine's message (which
// lists every value) is only built when asked for: an object with many
// such errors against a long enum would otherwise hold the whole list once
// per error (../shared/findings/hostile/13-enum-20k: 20,000 errors against
// 20,000 values ran out of memory, in the apiserver too).
type enumError struct {
	name   string
	value  any
	values []any
}

func (e *enumError) Error() string {
	return openapierrors.EnumFail(e.name, in, e.value, e.values).Error()
}

// maxEnumListBytes bounds, per validated value, the bytes of lists of
// supported values written out in full in NotSupported errors. Beyond it
// an error whose list was already written in full refers to that error
// instead of repeating a list longer than abbreviateEnumAbove bytes. Real
// objects stay far below (1,000 errors against a 400-value enum would be
// needed), so their errors are the apiserver's exactly.
const (
	maxEnumListBytes    = 4 << 20
	abbreviateEnumAbove = 1 << 10
)

// enumDetails builds the details of the NotSupported errors of one
// validated value: each distinct list of values is quoted once, and the
// details share its string.
type enumDetails struct {
	lists map[enumKey]*enumList
	// written counts the bytes of lists written out in full.
	written int
}

// enumKey identifies a schema's enum list (the walker passes the schema's
// own slice).
type enumKey struct {
	first *any
	n     int
}

type enumList struct {
	detail string
	// at is the field of the first error that listed the values.
	at string
}

// notSupported is field.NotSupported(p, e.value, values as strings), with
// lists beyond the budget abbreviated.
func (d *enumDetails) notSupported(p *field.Path, e *enumError) *field.Error {
	err := field.NotSupported[string](p, e.value, nil)
	if len(e.values) == 0 {
		return err
	}
	if d.lists == nil {
		d.lists = map[enumKey]*enumList{}
	}
	k := enumKey{unsafe.SliceData(e.values), len(e.values)}
	l, ok := d.lists[k]
	if !ok {
		l = &enumList{detail: field.NotSupported(p, e.value, enumStrings(e.values)).Detail, at: err.Field}
		d.lists[k] = l
	}
	if d.written+len(l.detail) > maxEnumListBytes && len(l.detail) > abbreviateEnumAbove && ok {
		err.Detail = fmt.Sprintf("supported values: the %d values listed at %s (lists of supported values repeated beyond %d MiB per object are abbreviated)", len(e.values), l.at, maxEnumListBytes>>20)
		return err
	}
	d.written += len(l.detail)
	err.Detail = l.detail
	return err
}

// enumStrings writes enum values as the apiserver's NotSupported errors
// list them: strings as they are, anything else as JSON.
func enumStrings(values []any) []string {
	out := make([]string, 0, len(values))
	for _, allowed := range values {
		if s, ok := allowed.(string); ok {
			out = append(out, s)
		} else {
			b, _ := json.Marshal(allowed)
			out = append(out, string(b))
		}
	}
	return out
}
