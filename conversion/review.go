package conversion

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// The ConversionReview group and its two versions.
const (
	reviewGroup   = "apiextensions.k8s.io"
	reviewV1      = reviewGroup + "/v1"
	reviewV1beta1 = reviewGroup + "/v1beta1"
)

// CheckReview says what the apiserver makes of a conversion webhook's
// answer. review is a ConversionReview (apiextensions.k8s.io/v1 or
// v1beta1) as a decoded JSON object holding both the request the apiserver
// sent (request.uid, request.desiredAPIVersion, request.objects) and the
// webhook's answer (response). It returns the objects the apiserver
// continues with, in request order (one request object is converted as a
// GET converts it, several as a list), or the InternalError that rejects
// the answer, with the apiserver's message and, as field, where the fault
// lies (apiVersion, response, response.uid, response.result,
// response.convertedObjects, response.convertedObjects[i].metadata.name,
// ...; request... for a request the apiserver would not send). review is
// not changed.
func CheckReview(review map[string]any) ([]map[string]any, *field.Error) {
	av := str(review["apiVersion"])
	if av != reviewV1 && av != reviewV1beta1 {
		return nil, failed("apiVersion", "not a ConversionReview of %s or %s: apiVersion %q", reviewV1, reviewV1beta1, av)
	}
	objects, desired, uid, err := reviewRequest(review["request"])
	if err != nil {
		return nil, err
	}
	answer := reviewAnswer{review: review, v1: av == reviewV1, uid: uid}
	c := &Converter{call: answer.converted}
	return c.Convert(context.Background(), objects, desired)
}

// reviewRequest reads a review's request: its objects, desired apiVersion
// and uid. Objects must be of one group and kind, the group that of the
// desired apiVersion, as the apiserver only sends such requests.
func reviewRequest(v any) ([]map[string]any, string, string, *field.Error) {
	req, ok := v.(map[string]any)
	if !ok {
		return nil, "", "", failed("request", "the review has no request object")
	}
	desired, ok := req["desiredAPIVersion"].(string)
	if !ok || strings.Count(desired, "/") != 1 {
		return nil, "", "", failed("request.desiredAPIVersion", "want GROUP/VERSION, got %v", req["desiredAPIVersion"])
	}
	uid, ok := req["uid"].(string)
	if !ok && req["uid"] != nil {
		return nil, "", "", failed("request.uid", "want a string, got %s", jsonvalue.DecodeWords.Of(req["uid"]))
	}
	list, ok := req["objects"].([]any)
	if !ok || len(list) == 0 {
		return nil, "", "", failed("request.objects", "the request has no objects")
	}
	group, _, _ := strings.Cut(desired, "/")
	objects := make([]map[string]any, len(list))
	for i, o := range list {
		m, ok := o.(map[string]any)
		at := fmt.Sprintf("request.objects[%d]", i)
		if !ok {
			return nil, "", "", failed(at, "not an object")
		}
		g, _, hasSlash := strings.Cut(str(m["apiVersion"]), "/")
		switch {
		case !hasSlash || g != group:
			return nil, "", "", failed(at+".apiVersion", "the apiserver sends only objects of group %q, not %q", group, str(m["apiVersion"]))
		case str(m["kind"]) == "" || str(m["kind"]) != str(list[0].(map[string]any)["kind"]):
			return nil, "", "", failed(at+".kind", "the apiserver sends objects of one kind, %q, not %q", str(list[0].(map[string]any)["kind"]), str(m["kind"]))
		}
		objects[i] = m
	}
	return objects, desired, uid, nil
}

// reviewAnswer is a webhook's answer as the apiserver reads it
// (getConvertedObjectsFromResponse).
type reviewAnswer struct {
	review map[string]any
	v1     bool
	uid    string
}

// converted checks the answer and returns its converted objects.
func (a reviewAnswer) converted(_ context.Context, _ []map[string]any, _, gvk string) ([]any, *field.Error) {
	fail := func(at, format string, args ...any) ([]any, *field.Error) {
		return nil, failed(at, "conversion webhook for %s failed: %s", gvk, fmt.Sprintf(format, args...))
	}
	if av, kind := str(a.review["apiVersion"]), str(a.review["kind"]); a.v1 && (av != reviewV1 || kind != "ConversionReview") {
		return fail("apiVersion", "expected webhook response of %s, Kind=ConversionReview, got %s, Kind=%s", reviewV1, groupVersion(av), kind)
	}
	v, found := a.review["response"]
	if !found || v == nil {
		return fail("response", "no response provided")
	}
	resp, ok := v.(map[string]any)
	if !ok {
		return fail("response", "json: cannot unmarshal %s into Go struct field ConversionReview.response of type %s.ConversionResponse", jsonvalue.DecodeWords.Of(v), a.version())
	}
	if err := decodable(resp, a.version()); err != "" {
		return fail("response", "%s", err)
	}
	if uid := str(resp["uid"]); a.v1 && uid != a.uid {
		return fail("response.uid", "expected response.uid=%q, got %q", a.uid, uid)
	}
	result, _ := resp["result"].(map[string]any)
	if status := str(result["status"]); status != "Success" {
		if msg := str(result["message"]); msg != "" {
			return fail("response.result", "%s", msg)
		}
		return fail("response.result", "response.result.status was '%s', not 'Success'", status)
	}
	objs, _ := resp["convertedObjects"].([]any)
	return objs, nil
}

func (a reviewAnswer) version() string {
	if a.v1 {
		return "v1"
	}
	return "v1beta1"
}

// decodable says why the response cannot be decoded into the typed
// ConversionResponse ("" when it can): uid a string, result an object with
// string status and message, convertedObjects a list.
func decodable(resp map[string]any, version string) string {
	wrong := func(v any, at, goType string) string {
		return fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s of type %s", jsonvalue.DecodeWords.Of(v), at, goType)
	}
	if v, ok := resp["uid"]; ok && v != nil {
		if _, isStr := v.(string); !isStr {
			return wrong(v, "ConversionResponse.response.uid", "types.UID")
		}
	}
	if v, ok := resp["convertedObjects"]; ok && v != nil {
		if _, isList := v.([]any); !isList {
			return wrong(v, "ConversionResponse.response.convertedObjects", "[]runtime.RawExtension")
		}
	}
	v, ok := resp["result"]
	if !ok || v == nil {
		return ""
	}
	result, isMap := v.(map[string]any)
	if !isMap {
		return wrong(v, "ConversionResponse.response.result", "v1.Status")
	}
	for _, k := range [...]string{"status", "message", "reason"} {
		if s, ok := result[k]; ok && s != nil {
			if _, isStr := s.(string); !isStr {
				return wrong(s, "ConversionResponse.response.result."+k, "string")
			}
		}
	}
	return ""
}
