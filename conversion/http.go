package conversion

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxAnswer bounds the size of a webhook's answer read (the apiserver
// reads at most 3 MiB of a response body... and more for lists; this is a
// generous cap against runaway answers).
const maxAnswer = 64 << 20

// FromHandler is a Converter posting ConversionReviews of reviewVersion
// ("v1" or "v1beta1", the first of the CRD's conversionReviewVersions the
// apiserver supports) to h, as the apiserver posts them to a webhook
// service: the answer is decoded and checked as the apiserver checks it.
func FromHandler(h http.Handler, reviewVersion string) *Converter {
	return &Converter{call: poster{reviewVersion, func(ctx context.Context, body []byte) (int, []byte, error) {
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/convert", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.Bytes(), nil
	}}.call}
}

// FromURL is FromHandler for a webhook at url, called with client (nil:
// http.DefaultClient).
func FromURL(url string, client *http.Client, reviewVersion string) *Converter {
	if client == nil {
		client = http.DefaultClient
	}
	return &Converter{call: poster{reviewVersion, func(ctx context.Context, body []byte) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
		return resp.StatusCode, data, err
	}}.call}
}

// poster sends ConversionReviews of one version through post.
type poster struct {
	version string
	post    func(ctx context.Context, body []byte) (status int, answer []byte, err error)
}

// call builds the review the apiserver sends, posts it and checks the
// answer (getConvertedObjectsFromResponse).
func (p poster) call(ctx context.Context, objects []map[string]any, desired, gvk string) ([]any, *field.Error) {
	fail := func(at, format string, args ...any) ([]any, *field.Error) {
		return nil, failed(at, "conversion webhook for %s failed: %s", gvk, fmt.Sprintf(format, args...))
	}
	var av string
	switch p.version {
	case "v1":
		av = reviewV1
	case "v1beta1":
		av = reviewV1beta1
	default:
		return fail("apiVersion", "no supported conversion review versions")
	}
	uid := newUID()
	list := make([]any, len(objects))
	for i, o := range objects {
		list[i] = o
	}
	request := map[string]any{"uid": uid, "desiredAPIVersion": desired, "objects": list}
	body, err := json.Marshal(map[string]any{"apiVersion": av, "kind": "ConversionReview", "request": request})
	if err != nil {
		return fail("request", "%v", err)
	}
	status, data, err := p.post(ctx, body)
	if err != nil {
		return fail("response", "%v", err)
	}
	if status < 200 || status > 299 {
		return fail("response", "the server responded with status %d: %s", status, bytes.TrimSpace(data))
	}
	var answer map[string]any
	if err := decodeJSON(data, &answer); err != nil {
		return fail("response", "%v", err)
	}
	a := reviewAnswer{review: answer, v1: p.version == "v1", uid: uid}
	return a.converted(ctx, objects, desired, gvk)
}

// decodeJSON decodes a JSON answer with integers as int64, as the
// apiserver's unstructured decoding does.
func decodeJSON(data []byte, v *map[string]any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	*v = fromNumbers(*v).(map[string]any)
	return nil
}

// fromNumbers turns json.Numbers into int64 (when integral) or float64.
func fromNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = fromNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = fromNumbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// newUID is a random request uid.
func newUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Handler serves ConversionReviews (v1 and v1beta1, POSTed as JSON) with
// f: the answer carries f's converted objects, or f's error as a Failure
// result. Before answering, the handler checks its own answer as the
// apiserver will (CheckReview): an answer the apiserver would reject is
// replaced by a Failure whose message is the apiserver's error, so a
// rejected conversion shows in a unit test of the handler, and in a
// cluster as a clear error rather than a mangled object.
func Handler(f Func) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST a ConversionReview", http.StatusMethodNotAllowed)
			return
		}
		data, err := io.ReadAll(io.LimitReader(r.Body, maxAnswer))
		var review map[string]any
		if err == nil {
			err = decodeJSON(data, &review)
		}
		if err != nil {
			http.Error(w, "cannot decode the ConversionReview: "+err.Error(), http.StatusBadRequest)
			return
		}
		objects, desired, uid, ferr := reviewRequest(review["request"])
		if ferr != nil {
			http.Error(w, ferr.Error(), http.StatusBadRequest)
			return
		}
		review["response"] = answer(r.Context(), f, objects, desired, uid)
		if _, ferr := CheckReview(review); ferr != nil {
			review["response"] = map[string]any{"uid": uid, "result": map[string]any{"status": "Failure", "message": "the apiserver would reject this answer: " + ferr.Detail}}
		}
		delete(review, "request")
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(review)
	})
}

// answer is the response of f to a request.
func answer(ctx context.Context, f Func, objects []map[string]any, desired, uid string) (resp map[string]any) {
	defer func() {
		if p := recover(); p != nil {
			resp = map[string]any{"uid": uid, "result": map[string]any{"status": "Failure", "message": fmt.Sprintf("the conversion panicked: %v", p)}}
		}
	}()
	copies := make([]map[string]any, len(objects))
	for i, o := range objects {
		copies[i], _ = copyMap(o) // decoded from JSON: every value has a JSON form
	}
	converted, err := f(ctx, copies, desired)
	if err != nil {
		return map[string]any{"uid": uid, "result": map[string]any{"status": "Failure", "message": err.Error()}}
	}
	if converted == nil {
		converted = []any{}
	}
	return map[string]any{"uid": uid, "result": map[string]any{"status": "Success"}, "convertedObjects": converted}
}
