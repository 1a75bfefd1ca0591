package crdschema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	crdschema "github.com/crdschema/crdschema"
)

// The few admission.k8s.io/v1 types a webhook needs, as JSON; importing
// k8s.io/api for them is not necessary.
type admissionReview struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Request    *admissionRequest  `json:"request,omitempty"`
	Response   *admissionResponse `json:"response,omitempty"`
}

type admissionRequest struct {
	UID       string          `json:"uid"`
	Operation string          `json:"operation"` // CREATE, UPDATE, DELETE, CONNECT
	Object    json.RawMessage `json:"object,omitempty"`
	OldObject json.RawMessage `json:"oldObject,omitempty"`
}

type admissionResponse struct {
	UID       string   `json:"uid"`
	Allowed   bool     `json:"allowed"`
	Status    *status  `json:"status,omitempty"`
	PatchType string   `json:"patchType,omitempty"`
	Patch     []byte   `json:"patch,omitempty"` // base64 in JSON, as the API expects
	Warnings  []string `json:"warnings,omitempty"`
}

type status struct {
	Code    int    `json:"code"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// webhook answers AdmissionReviews for one CRD version: the response
// allows an object the apiserver would accept, patched to what it would
// store (pruned, defaulted), with the pruned fields as warnings, and
// denies one it would refuse, with its errors.
func webhook(s *crdschema.Schema) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		var review admissionReview
		if err := json.NewDecoder(req.Body).Decode(&review); err != nil || review.Request == nil {
			http.Error(w, "not an AdmissionReview", http.StatusBadRequest)
			return
		}
		in := review.Request
		resp := &admissionResponse{UID: in.UID, Allowed: true}
		// encoding/json decodes numbers as float64: crdschema takes them
		// as the apiserver takes the same JSON.
		var obj, old map[string]any
		_ = json.Unmarshal(in.Object, &obj)
		_ = json.Unmarshal(in.OldObject, &old)
		var r crdschema.Result
		switch in.Operation {
		case "CREATE":
			r = s.Apply(obj)
		case "UPDATE":
			r = s.ApplyUpdate(obj, old)
		default:
			review.Response = resp
			_ = json.NewEncoder(w).Encode(review)
			return
		}
		resp.Warnings = r.Warnings()
		if len(r.Errors) > 0 {
			resp.Allowed = false
			resp.Status = &status{Code: http.StatusUnprocessableEntity, Reason: "Invalid", Message: r.Errors.ToAggregate().Error()}
		} else if patch, err := r.Patch(obj); err == nil && string(patch) != "[]" {
			resp.PatchType, resp.Patch = "JSONPatch", patch
		}
		review.Response = resp
		_ = json.NewEncoder(w).Encode(review)
	}
}

// A mutating admission webhook for CronTabs answering admission.k8s.io/v1
// AdmissionReviews, CREATE and UPDATE, end to end over HTTP: a JSON Patch to
// what the apiserver would store, warnings, or a denial with its errors.
func Example_admissionReview() {
	crd, err := crdschema.LoadCRD([]byte(cronTabCRD))
	if err != nil {
		panic(err)
	}
	s, err := crd.Version("v1")
	if err != nil {
		panic(err)
	}
	server := httptest.NewServer(webhook(s))
	defer server.Close()

	send := func(operation, object, oldObject string) {
		review := admissionReview{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview", Request: &admissionRequest{
			UID: "705ab4f5-6393-11e8-b7cc-42010a800002", Operation: operation, Object: json.RawMessage(object)}}
		if oldObject != "" {
			review.Request.OldObject = json.RawMessage(oldObject)
		}
		body, _ := json.Marshal(review)
		res, err := http.Post(server.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			panic(err)
		}
		defer res.Body.Close()
		var answer admissionReview
		if err := json.NewDecoder(res.Body).Decode(&answer); err != nil {
			panic(err)
		}
		r := answer.Response
		fmt.Printf("%s: allowed=%v\n", operation, r.Allowed)
		if r.Patch != nil {
			fmt.Printf("  %s patch: %s\n", r.PatchType, r.Patch)
		}
		for _, w := range r.Warnings {
			fmt.Println("  warning:", w)
		}
		if r.Status != nil {
			fmt.Printf("  %d %s: %s\n", r.Status.Code, r.Status.Reason, r.Status.Message)
		}
	}
	stored := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c","resourceVersion":"7"},"spec":{"cronSpec":"* * * * */5","image":"img","replicas":1}}`
	send("CREATE", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c"},"spec":{"image":"img","colour":"blue"}}`, "")
	send("UPDATE", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c","resourceVersion":"7"},"spec":{"cronSpec":"* * * * */5","image":"img","replicas":3}}`, stored)
	send("UPDATE", `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"c","resourceVersion":"7"},"spec":{"cronSpec":"* * * * */5","image":"img","replicas":30}}`, stored)
	// Output:
	// CREATE: allowed=true
	//   JSONPatch patch: [{"op":"remove","path":"/spec/colour"},{"op":"add","path":"/spec/cronSpec","value":"5 0 * * *"},{"op":"add","path":"/spec/replicas","value":1}]
	//   warning: unknown field "spec.colour"
	// UPDATE: allowed=true
	// UPDATE: allowed=false
	//   422 Invalid: spec.replicas: Invalid value: 30: spec.replicas in body should be less than or equal to 10
}
