package oracle

import (
	"context"
	"fmt"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/util/jsonpath"
)

// columnsLine and scaleLine are the lines of `columns -o json` and
// `scale -o json`.
type columnsLine struct {
	File     string                         `json:"file"`
	Document int                            `json:"document"`
	Columns  []metav1.TableColumnDefinition `json:"columns"`
	Cells    []interface{}                  `json:"cells"`
	Errors   []jsonError                    `json:"errors"`
}

type scaleLine struct {
	File     string                 `json:"file"`
	Document int                    `json:"document"`
	Scale    map[string]interface{} `json:"scale"`
	Errors   []jsonError            `json:"errors"`
}

// served answers columns and scale: every object is a stored object read
// at its own version (which must be served) through the storage read path
// (readStored, then the requested version's coercion without dropping and
// the generation repair), then given to the apiserver's table convertor or
// turned into the Scale as scaleFromCustomResource does.
func (r *runner) served(ctx context.Context, verb string) int {
	crdDocs, docErrs, err := ReadDocuments(r.env.Dir, r.opts.crds, r.env.Stdin)
	if err != nil {
		r.inputError(err)
		return ExitInput
	}
	status := ExitOK
	for _, e := range docErrs {
		r.inputError(e)
		status = ExitInput
	}
	var crds []*checkedCRD
	for _, d := range crdDocs {
		c, crashed, err := r.safeCheckDoc(ctx, d, false)
		if crashed {
			continue
		}
		if err != nil { // checked before c, which is nil with an error
			r.inputError(err)
			status = ExitInput
			continue
		}
		if c == nil { // not a CRD: ignored
			continue
		}
		crds = append(crds, c)
	}
	router := newRouter(crds)
	docs, docErrs, err := ReadDocuments(r.env.Dir, r.opts.paths, r.env.Stdin)
	if err != nil {
		r.inputError(err)
		return ExitInput
	}
	for _, e := range docErrs {
		r.inputError(e)
		status = ExitInput
	}
	first := true
	for _, d := range docs {
		line, failed, crashed := r.safeServe(ctx, router, verb, d)
		if crashed {
			continue
		}
		if failed && status == ExitOK {
			status = ExitErrors
		}
		if err := r.writeLine(line, &first); err != nil {
			r.inputError(err)
			return ExitInput
		}
	}
	return status
}

func (r *runner) safeServe(ctx context.Context, rt *router, verb string, d Document) (line any, failed, crashed bool) {
	defer func() {
		if p := recover(); p != nil {
			r.crash(d, p)
			crashed = true
		}
	}()
	var errs field.ErrorList
	if verb == "columns" {
		l := columnsLine{File: d.File, Document: d.Index}
		l.Columns, l.Cells, errs = r.columns(ctx, rt, d)
		l.Errors = jsonErrors(sortedErrors(errs))
		return l, len(errs) > 0, false
	}
	l := scaleLine{File: d.File, Document: d.Index}
	l.Scale, errs = readScale(rt, d)
	l.Errors = jsonErrors(sortedErrors(errs))
	return l, len(errs) > 0, false
}

// readAtOwnVersion routes a stored object and reads it at its version.
func readAtOwnVersion(rt *router, d Document) (*servedVersion, map[string]interface{}, field.ErrorList) {
	sv, gvk, ferr := rt.route(d.Object)
	if ferr != nil {
		return nil, nil, field.ErrorList{ferr}
	}
	if sv.err != nil {
		return nil, nil, field.ErrorList{field.InternalError(nil, sv.err)}
	}
	u := runtime.DeepCopyJSON(d.Object)
	if _, ok := u["metadata"]; !ok {
		return sv, nil, field.ErrorList{field.InternalError(field.NewPath("metadata"), fmt.Errorf("the storage decoder panics on an object without metadata: runtime error: invalid memory address or nil pointer dereference"))}
	}
	preserve := sv.crd.V1.Spec.PreserveUnknownFields
	if errs := readStored(u, sv.structural, gvk.GroupKind(), preserve); len(errs) > 0 {
		return sv, nil, errs
	}
	if _, errs := coerce(u, sv.structural, gvk.GroupKind(), preserve, coerceOptions{pruneUnknown: true, pruneNulls: true}); len(errs) > 0 {
		return sv, nil, errs
	}
	if m, ok := u["metadata"].(map[string]interface{}); ok {
		if g, _, _ := unstructured.NestedInt64(m, "generation"); g == 0 {
			m["generation"] = int64(1)
		}
	}
	return sv, u, nil
}

func (r *runner) columns(ctx context.Context, rt *router, d Document) ([]metav1.TableColumnDefinition, []interface{}, field.ErrorList) {
	sv, u, errs := readAtOwnVersion(rt, d)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	// The handler's getColumnsForVersion on the v1 CRD, then
	// serveDefaultColumnsIfEmpty.
	var cols []apiextensionsv1.CustomResourceColumnDefinition
	for _, v := range sv.crd.V1.Spec.Versions {
		if v.Name == sv.name {
			cols = v.AdditionalPrinterColumns
		}
	}
	if len(cols) == 0 {
		// The handler's serveDefaultColumnsIfEmpty.
		cols = []apiextensionsv1.CustomResourceColumnDefinition{{Name: "Age", Type: "date", Description: metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"], JSONPath: ".metadata.creationTimestamp"}}
	}
	tc, _ := tableconvertor.New(cols) // the handler uses it even with an error
	table, err := tc.ConvertToTable(ctx, &unstructured.Unstructured{Object: u}, nil)
	if err != nil {
		return nil, nil, field.ErrorList{field.InternalError(field.NewPath("items"), err)}
	}
	if len(table.Rows) != 1 {
		return nil, nil, field.ErrorList{field.InternalError(field.NewPath("items"), fmt.Errorf("%d rows", len(table.Rows)))}
	}
	cells := table.Rows[0].Cells
	r.shiftAges(table.ColumnDefinitions, cells, cols, u)
	return table.ColumnDefinitions, cells, nil
}

// shiftAges recomputes the ages of date cells with the --now clock: the
// table convertor counts them to time.Now. Only cells the apiserver made
// ages (not <invalid>, <unknown> or null) are recomputed, from the same
// first JSONPath result.
func (r *runner) shiftAges(defs []metav1.TableColumnDefinition, cells []interface{}, cols []apiextensionsv1.CustomResourceColumnDefinition, u map[string]interface{}) {
	now := r.opts.now
	if now.IsZero() {
		return
	}
	for i := 1; i < len(defs) && i < len(cells); i++ {
		s, ok := cells[i].(string)
		if defs[i].Type != "date" || !ok || s == "<invalid>" || s == "<unknown>" {
			continue
		}
		p := jsonpath.New(cols[i-1].Name)
		if p.Parse("{"+cols[i-1].JSONPath+"}") != nil {
			continue
		}
		p.AllowMissingKeys(true)
		res, err := p.FindResults(u)
		if err != nil || len(res) == 0 || len(res[0]) == 0 {
			continue
		}
		v, ok := res[0][0].Interface().(string)
		if !ok {
			continue
		}
		var ts metav1.Time
		if ts.UnmarshalQueryParameter(v) == nil && !ts.IsZero() {
			cells[i] = duration.HumanDuration(now.Sub(ts.Time))
		}
	}
}

// readScale is GET .../scale: scaleFromCustomResource (unexported in the
// apiserver) with the same apimachinery accessors, and ScaleREST.Get's
// error for a missing spec replicas field.
func readScale(rt *router, d Document) (map[string]interface{}, field.ErrorList) {
	sv, _, ferr := rt.route(d.Object)
	if ferr == nil && sv.err == nil && sv.scale == nil {
		return nil, field.ErrorList{{Type: field.ErrorTypeNotFound, BadValue: field.OmitValueType{}, Detail: fmt.Sprintf("version %s of CustomResourceDefinition %q has no scale subresource", sv.name, sv.crd.Name)}}
	}
	sv, u, errs := readAtOwnVersion(rt, d)
	if len(errs) > 0 {
		return nil, errs
	}
	sc := sv.scale
	cr := &unstructured.Unstructured{Object: u}
	at := func(p string) *field.Path { return field.NewPath(strings.TrimPrefix(p, ".")) }
	spec, found, err := unstructured.NestedInt64(u, splitPath(sc.SpecReplicasPath)...)
	if err != nil {
		return nil, field.ErrorList{field.InternalError(at(sc.SpecReplicasPath), err)}
	}
	status, _, err := unstructured.NestedInt64(u, splitPath(sc.StatusReplicasPath)...)
	if err != nil {
		return nil, field.ErrorList{field.InternalError(at(sc.StatusReplicasPath), err)}
	}
	var selector string
	if sc.LabelSelectorPath != nil && len(*sc.LabelSelectorPath) > 0 {
		if selector, _, err = unstructured.NestedString(u, splitPath(*sc.LabelSelectorPath)...); err != nil {
			return nil, field.ErrorList{field.InternalError(at(*sc.LabelSelectorPath), err)}
		}
	}
	if !found {
		return nil, field.ErrorList{field.InternalError(at(sc.SpecReplicasPath), fmt.Errorf("the spec replicas field %q does not exist", sc.SpecReplicasPath))}
	}
	meta := map[string]interface{}{}
	for k, v := range map[string]string{"name": cr.GetName(), "namespace": cr.GetNamespace(), "uid": string(cr.GetUID()), "resourceVersion": cr.GetResourceVersion()} {
		if v != "" {
			meta[k] = v
		}
	}
	if ts := cr.GetCreationTimestamp(); !ts.IsZero() {
		meta["creationTimestamp"] = ts.UTC().Format(time.RFC3339)
	}
	specOut := map[string]interface{}{}
	if int32(spec) != 0 {
		specOut["replicas"] = int64(int32(spec))
	}
	statusOut := map[string]interface{}{"replicas": int64(int32(status))}
	if selector != "" {
		statusOut["selector"] = selector
	}
	return map[string]interface{}{"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": meta, "spec": specOut, "status": statusOut}, nil
}

// splitPath is the apiserver's splitReplicasPath.
func splitPath(p string) []string {
	return strings.Split(strings.TrimPrefix(p, "."), ".")
}
