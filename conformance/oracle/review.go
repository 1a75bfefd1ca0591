package oracle

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// reviewLine is one line of convert --review.
type reviewLine struct {
	File     string                   `json:"file"`
	Document int                      `json:"document"`
	Objects  []map[string]interface{} `json:"objects"`
	Errors   []jsonError              `json:"errors"`
}

// webhookServer is a TLS server answering every ConversionReview with the
// answer of the document under test, its uid replaced by the request's
// when the document's answer carried the document's request uid.
type webhookServer struct {
	mu       sync.Mutex
	doc      map[string]interface{}
	lastUID  string
	srv      *httptest.Server
	caBundle []byte
}

func newWebhookServer() *webhookServer {
	w := &webhookServer{}
	w.srv = httptest.NewTLSServer(http.HandlerFunc(w.serve))
	w.caBundle = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: w.srv.Certificate().Raw})
	return w
}

func (w *webhookServer) serve(rw http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var sent struct {
		Request struct {
			UID string `json:"uid"`
		} `json:"request"`
	}
	_ = json.Unmarshal(body, &sent)
	w.mu.Lock()
	doc := runtime.DeepCopyJSON(w.doc)
	w.lastUID = sent.Request.UID
	w.mu.Unlock()
	answer := map[string]interface{}{}
	for _, k := range []string{"apiVersion", "kind", "response"} {
		if v, ok := doc[k]; ok {
			answer[k] = v
		}
	}
	req, _ := doc["request"].(map[string]interface{})
	if resp, ok := answer["response"].(map[string]interface{}); ok && req != nil && resp["uid"] == req["uid"] {
		resp["uid"] = sent.Request.UID
	}
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(answer)
}

// reviews answers convert --review: each ConversionReview's request is
// converted by the apiserver's webhook converter (conversion
// NewCRConverterFactory, strategy Webhook) talking to a server that gives
// the review's answer.
func (r *runner) reviews() int {
	docs, docErrs, err := ReadDocuments(r.env.Dir, r.opts.paths, r.env.Stdin)
	if err != nil {
		r.inputError(err)
		return ExitInput
	}
	status := ExitOK
	for _, e := range docErrs {
		r.inputError(e)
		status = ExitInput
	}
	w := newWebhookServer()
	defer w.srv.Close()
	for _, d := range docs {
		objects, ferr := w.review(d.Object)
		line := reviewLine{File: d.File, Document: d.Index, Objects: objects, Errors: []jsonError{}}
		if ferr != nil {
			line.Objects = nil
			line.Errors = jsonErrors(field.ErrorList{ferr})
			if status == ExitOK {
				status = ExitErrors
			}
		}
		if err := writeJSONLine(r.env.Stdout, line); err != nil {
			r.inputError(err)
			return ExitInput
		}
	}
	return status
}

// review converts one review's request through the webhook converter.
func (w *webhookServer) review(doc map[string]interface{}) ([]map[string]interface{}, *field.Error) {
	av, _ := doc["apiVersion"].(string)
	version := strings.TrimPrefix(av, "apiextensions.k8s.io/")
	if version != "v1" && version != "v1beta1" {
		return nil, field.InternalError(field.NewPath("apiVersion"), fmt.Errorf("not a ConversionReview: %q", av))
	}
	req, _ := doc["request"].(map[string]interface{})
	desired, _ := req["desiredAPIVersion"].(string)
	gv, err := schema.ParseGroupVersion(desired)
	if req == nil || err != nil || !strings.Contains(desired, "/") {
		return nil, field.InternalError(field.NewPath("request", "desiredAPIVersion"), fmt.Errorf("want GROUP/VERSION, got %q", desired))
	}
	list, _ := req["objects"].([]interface{})
	if len(list) == 0 {
		return nil, field.InternalError(field.NewPath("request", "objects"), fmt.Errorf("no objects"))
	}
	var items []unstructured.Unstructured
	versions := map[string]bool{gv.Version: true}
	for i, o := range list {
		m, ok := o.(map[string]interface{})
		u := unstructured.Unstructured{Object: m}
		ogv := u.GroupVersionKind().GroupVersion()
		if !ok || ogv.Group != gv.Group || !strings.Contains(u.GetAPIVersion(), "/") || u.GetKind() == "" || u.GetKind() != items0Kind(list) {
			return nil, field.InternalError(field.NewPath("request", "objects").Index(i), fmt.Errorf("not an object of group %q and one kind", gv.Group))
		}
		versions[ogv.Version] = true
		items = append(items, *u.DeepCopy())
	}
	kind := items[0].GetKind()
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "reviewed." + gv.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: gv.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: kind, ListKind: kind + "List", Plural: "reviewed"},
			Scope: apiextensionsv1.NamespaceScoped,
			Conversion: &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.WebhookConverter, Webhook: &apiextensionsv1.WebhookConversion{
				ConversionReviewVersions: []string{version},
				ClientConfig:             &apiextensionsv1.WebhookClientConfig{URL: &w.srv.URL, CABundle: w.caBundle},
			}},
		},
	}
	for v := range versions {
		crd.Spec.Versions = append(crd.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{Name: v, Served: true})
	}
	f, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, field.InternalError(nil, err)
	}
	_, conv, err := f.NewConverter(crd)
	if err != nil {
		return nil, field.InternalError(nil, err)
	}
	w.mu.Lock()
	w.doc, w.lastUID = doc, ""
	w.mu.Unlock()
	var in runtime.Object = &items[0]
	if len(items) > 1 {
		l := &unstructured.UnstructuredList{Object: map[string]interface{}{"apiVersion": desired, "kind": kind + "List"}, Items: items}
		in = l
	}
	out, err := conv.ConvertToVersion(in, gv)
	if err != nil {
		// The message names the request uid the converter made up: name
		// the review's instead.
		msg := err.Error()
		w.mu.Lock()
		if uid, _ := req["uid"].(string); w.lastUID != "" {
			msg = strings.ReplaceAll(msg, w.lastUID, uid)
		}
		w.mu.Unlock()
		return nil, classify(msg, doc)
	}
	switch o := out.(type) {
	case *unstructured.Unstructured:
		return []map[string]interface{}{o.Object}, nil
	case *unstructured.UnstructuredList:
		res := make([]map[string]interface{}, len(o.Items))
		for i := range o.Items {
			res[i] = o.Items[i].Object
		}
		return res, nil
	}
	return nil, field.InternalError(nil, fmt.Errorf("unexpected converted type %T", out))
}

func items0Kind(list []interface{}) string {
	m, _ := list[0].(map[string]interface{})
	k, _ := m["kind"].(string)
	return k
}

var (
	indexRE = regexp.MustCompile(`at index (\d+)`)
	// fieldOfMessage maps the webhook converter's messages to where the
	// fault lies, below response.convertedObjects[i] ("" for the list).
	fieldOfMessage = []struct {
		re    *regexp.Regexp
		field string
	}{
		{regexp.MustCompile(`invalid groupVersion`), ".apiVersion"},
		{regexp.MustCompile(`invalid kind|must have the same kind`), ".kind"},
		{regexp.MustCompile(`must have the same namespace`), ".metadata.namespace"},
		{regexp.MustCompile(`must have the same name`), ".metadata.name"},
		{regexp.MustCompile(`must have the same UID`), ".metadata.uid"},
		{regexp.MustCompile(`metadata\.labels|metadata\.labels\[`), ".metadata.labels"},
		{regexp.MustCompile(`metadata\.annotation`), ".metadata.annotations"},
		{regexp.MustCompile(`missing metadata|invalid metadata of type`), ".metadata"},
	}
)

// classify turns the webhook converter's error into the contract's
// InternalError, its field naming where the fault lies.
func classify(msg string, doc map[string]interface{}) *field.Error {
	at := func(f string) *field.Error {
		return &field.Error{Type: field.ErrorTypeInternal, Field: f, BadValue: field.OmitValueType{}, Detail: msg}
	}
	resp, _ := doc["response"].(map[string]interface{})
	result, _ := resp["result"].(map[string]interface{})
	switch {
	case strings.Contains(msg, "expected webhook response of"):
		return at("apiVersion")
	case strings.Contains(msg, "no response provided"):
		return at("response")
	case strings.Contains(msg, "expected response.uid="):
		return at("response.uid")
	case strings.Contains(msg, "failed: ") && result["status"] != "Success" && !strings.Contains(msg, "json:"):
		return at("response.result")
	case regexp.MustCompile(`returned \d+ objects, expected`).MatchString(msg):
		return at("response.convertedObjects")
	}
	i := "0"
	if m := indexRE.FindStringSubmatch(msg); m != nil {
		i = m[1]
	}
	base := "response.convertedObjects[" + i + "]"
	for _, f := range fieldOfMessage {
		if f.re.MatchString(msg) {
			return at(base + f.field)
		}
	}
	if strings.Contains(msg, "failed: ") {
		return at("response")
	}
	return at(base)
}
