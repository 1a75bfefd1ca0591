package conversion

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// DefaultTimeout is how long the apiserver waits for a conversion webhook
// by default (spec.conversion.webhook has no timeout of its own).
const DefaultTimeout = 30 * time.Second

// Func converts objects to desiredAPIVersion as a conversion webhook's
// code does, returning the converted objects in the same order. It gets
// copies it may change. Its answer is checked as the apiserver checks a
// webhook's: same count, apiVersion desiredAPIVersion, same kind, name,
// namespace and uid; of the returned metadata only labels and annotations
// are kept.
type Func func(ctx context.Context, objects []map[string]any, desiredAPIVersion string) ([]any, error)

// Converter converts custom resources between versions through a
// conversion webhook (a Go Func, an http.Handler or a URL) and checks
// and restores its answers as the apiserver's webhook converter does.
type Converter struct {
	// Timeout bounds each call (DefaultTimeout when zero): a webhook that
	// does not answer in time fails the conversion.
	Timeout time.Duration

	// call sends objects to the webhook and returns its converted objects,
	// or the error (its message complete) that fails the conversion of
	// objects of gvk (as the apiserver's messages render it).
	call func(ctx context.Context, objects []map[string]any, desiredAPIVersion, gvk string) ([]any, *field.Error)
}

// FromFunc is a Converter calling f.
func FromFunc(f Func) *Converter {
	return &Converter{call: func(ctx context.Context, objects []map[string]any, desired, gvk string) ([]any, *field.Error) {
		out, err := f(ctx, objects, desired)
		if err != nil {
			return nil, failed("response.result", "conversion webhook for %s failed: %v", gvk, err)
		}
		return out, nil
	}}
}

// Convert converts objects (not changed) to desiredAPIVersion as the
// apiserver's webhook converter converts one object (a GET) or a list:
// objects already at desiredAPIVersion are not sent and stay as they are; a
// single object with no field but apiVersion and kind only gets the new
// apiVersion. The error, an InternalError, names the webhook's fault with
// the apiserver's message; its field says where in the ConversionReview
// the fault lies (response.convertedObjects[0].metadata.name, ...).
func (c *Converter) Convert(ctx context.Context, objects []map[string]any, desiredAPIVersion string) ([]map[string]any, *field.Error) {
	out := make([]map[string]any, len(objects))
	copy(out, objects)
	if len(objects) == 0 {
		return out, nil
	}
	if len(objects) == 1 && isEmpty(objects[0]) {
		o, err := copyMap(objects[0])
		if err != nil {
			return nil, jsonvalue.InputError(err, requestObject(0))
		}
		o["apiVersion"] = desiredAPIVersion
		out[0] = o
		return out, nil
	}
	send, originals, at, err := toSend(objects, desiredAPIVersion)
	if err != nil {
		return nil, err
	}
	if len(send) == 0 {
		return out, nil
	}
	ck := checker{gvk: gvkString(objects[0]), desired: desiredAPIVersion, list: len(objects) > 1}
	if ck.list {
		// The apiserver converts a list read at the desired version.
		ck.gvk = groupVersion(desiredAPIVersion) + ", Kind=" + str(objects[0]["kind"]) + "List"
	}
	answer, err := c.callSafely(ctx, send, desiredAPIVersion, ck.gvk)
	if err != nil {
		return nil, err
	}
	if len(answer) != len(send) {
		return nil, failed("response.convertedObjects", "conversion webhook for %s returned %d objects, expected %d", ck.gvk, len(answer), len(send))
	}
	for j, i := range at {
		o, err := ck.object(j, originals[j], answer[j])
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// callSafely calls the webhook with the timeout, turning a panic or a
// timeout into an error naming the objects.
func (c *Converter) callSafely(ctx context.Context, objects []map[string]any, desired, gvk string) ([]any, *field.Error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		objs []any
		err  *field.Error
	}
	done := make(chan answer, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{err: failed("response", "conversion webhook for %s failed: the converter panicked converting %s: %v", gvk, names(objects), p)}
			}
		}()
		objs, err := c.call(ctx, objects, desired, gvk)
		done <- answer{objs, err}
	}()
	select {
	case a := <-done:
		return a.objs, a.err
	case <-ctx.Done():
		return nil, failed("response", "conversion webhook for %s failed: no answer converting %s: %v", gvk, names(objects), ctx.Err())
	}
}

// names lists objects as namespace/name for error messages.
func names(objects []map[string]any) string {
	s := ""
	for i, o := range objects {
		if i > 0 {
			s += ", "
		}
		n := metaString(o, "name")
		if ns := metaString(o, "namespace"); ns != "" {
			n = ns + "/" + n
		}
		s += fmt.Sprintf("%q", n)
	}
	return s
}

// isEmpty reports whether obj has no field but apiVersion and kind (the
// apiserver's isEmptyUnstructuredObject).
func isEmpty(obj map[string]any) bool {
	_, hasKind := obj["kind"]
	_, hasAV := obj["apiVersion"]
	return len(obj) == 2 && hasKind && hasAV
}

// copyMap is a copy of m that shares nothing with it, holding the JSON
// forms of its Go values that are not plain JSON (see the package doc);
// err is the jsonvalue.Plain error of a value with none.
func copyMap(m map[string]any) (map[string]any, error) {
	p, err := jsonvalue.Plain(m, jsonvalue.MaxDepth)
	out, _ := p.(map[string]any)
	return out, err
}

// toSend picks the objects that are not at desired: send holds copies of
// them for the webhook, originals the objects as its answers are checked
// against (their JSON forms), at their indices among objects.
func toSend(objects []map[string]any, desired string) (send, originals []map[string]any, at []int, _ *field.Error) {
	for i, o := range objects {
		if str(o["apiVersion"]) == desired {
			continue
		}
		if !jsonvalue.IsPlain(o, jsonvalue.MaxDepth) {
			var err error
			if o, err = copyMap(o); err != nil {
				return nil, nil, nil, jsonvalue.InputError(err, requestObject(len(send)))
			}
		}
		c, _ := copyMap(o)
		send, originals = append(send, c), append(originals, o)
		at = append(at, i)
	}
	return send, originals, at, nil
}

// requestObject is the path of the object i sent in a ConversionReview.
func requestObject(i int) *field.Path { return field.NewPath("request", "objects").Index(i) }
