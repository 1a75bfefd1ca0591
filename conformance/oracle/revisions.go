package oracle

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"time"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/endpoints/filters"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
)

// The stand-ins of a stored CRD created without them in its document: every
// created object has a uid and a creationTimestamp.
const (
	storedUID             = "00000000-0000-4000-8000-00000000c0de"
	storedResourceVersion = "1"
)

var storedCreationTimestamp = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

// recordWarnings passes warnings through the apiserver's warning recorder
// (the WithWarningRecorder filter: duplicates dropped, the headers' size
// limits applied) in sorted order, and returns the texts of the Warning
// headers it wrote, sorted. The apiserver adds format warnings in Go map
// order, which is random: sorted order makes the answer deterministic.
func recordWarnings(ws []string) []string {
	sorted := append([]string(nil), ws...)
	sort.Strings(sorted)
	h := filters.WithWarningRecorder(http.HandlerFunc(func(_ http.ResponseWriter, req *http.Request) {
		for _, w := range sorted {
			warning.AddWarning(req.Context(), "", w)
		}
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	parsed, _ := utilnet.ParseWarningHeaders(rec.Header().Values("Warning"))
	out := []string{}
	for _, p := range parsed {
		out = append(out, p.Text)
	}
	sort.Strings(out)
	return out
}

// createWarnings are the warnings of an accepted create of crd: the CRD
// strategy's WarningsOnCreate; none when the create has errors.
func (c *codec) createWarnings(ctx context.Context, crd *apiextensions.CustomResourceDefinition, errs field.ErrorList) []string {
	if len(errs) > 0 {
		return []string{}
	}
	return recordWarnings(customresourcedefinition.NewStrategy(c.scheme).WarningsOnCreate(ctx, crd))
}

// storedCRD builds the CRD a cluster stores for an --old document: decoded
// and prepared as a create (status cleared, generation 1, the storage
// version stored), stored versions from the document's status when it has
// some, a uid and creationTimestamp, written and read back as v1, and the
// conditions its controllers add at once (NamesAccepted, Established). It
// is not validated.
func (c *codec) storedCRD(ctx context.Context, doc Document) (*apiextensions.CustomResourceDefinition, error) {
	raw, err := json.Marshal(doc.Object)
	if err != nil {
		return nil, &DecodeError{Kind: KindCRD, Err: err}
	}
	crd, err := c.decodeCRD(raw, false)
	if err != nil {
		return nil, &DecodeError{Kind: KindCRD, Err: err}
	}
	docStored := crd.Status.StoredVersions
	crd.Namespace = ""
	customresourcedefinition.NewStrategy(c.scheme).PrepareForCreate(ctx, crd)
	if len(docStored) > 0 {
		// A dump of a cluster's CRD after storage migrations.
		crd.Status.StoredVersions = docStored
	}
	if crd.UID == "" {
		crd.UID = types.UID(storedUID)
	}
	if crd.CreationTimestamp.IsZero() {
		crd.CreationTimestamp = storedCreationTimestamp
	}
	crd.ResourceVersion = storedResourceVersion
	crd.DeletionTimestamp, crd.DeletionGracePeriodSeconds = nil, nil
	v1, err := c.toV1(crd)
	if err != nil {
		return nil, &DecodeError{Kind: KindCRD, Err: err}
	}
	back := &apiextensions.CustomResourceDefinition{}
	if err := c.scheme.Convert(v1, back, nil); err != nil {
		return nil, &DecodeError{Kind: KindCRD, Err: err}
	}
	now := metav1.NewTime(storedCreationTimestamp.Time)
	back.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{
		{Type: apiextensions.NamesAccepted, Status: apiextensions.ConditionTrue, Reason: "NoConflicts", LastTransitionTime: now},
		{Type: apiextensions.Established, Status: apiextensions.ConditionTrue, Reason: "InitialNamesAccepted", LastTransitionTime: now},
	}
	return back, nil
}

// loadStoredCRDs reads the --old CRDs by name; the first of a name wins,
// other documents and CRDs without a name are ignored.
func (r *runner) loadStoredCRDs(ctx context.Context) (map[string]*apiextensions.CustomResourceDefinition, bool) {
	docs, docErrs, err := ReadDocuments(r.env.Dir, r.opts.olds, r.env.Stdin)
	if err != nil {
		r.inputError(err)
		return nil, false
	}
	ok := true
	for _, e := range docErrs {
		r.inputError(e)
		ok = false
	}
	out := map[string]*apiextensions.CustomResourceDefinition{}
	for _, d := range docs {
		if d.Object == nil || !IsCRD(d.Object) {
			continue
		}
		crd, err := r.codec.storedCRD(ctx, d)
		if err != nil {
			r.inputError(&InputError{File: d.File, Line: d.Line, Document: d.Index, Err: err})
			ok = false
			continue
		}
		if crd.Name != "" && out[crd.Name] == nil {
			out[crd.Name] = crd
		}
	}
	return out, ok
}

// updateCRD runs what `kubectl apply` of crd (decoded as a create request)
// over the stored CRD old does in the apiserver: rest.BeforeUpdate with the
// CRD strategy (namespace cleared, generation, PrepareForUpdate, uid and
// timestamps kept, rest.ValidateUpdate), and, when accepted,
// WarningsOnUpdate.
func (c *codec) updateCRD(ctx context.Context, crd, old *apiextensions.CustomResourceDefinition) (field.ErrorList, []string) {
	strategy := customresourcedefinition.NewStrategy(c.scheme)
	ctx = genericapirequest.WithNamespace(ctx, metav1.NamespaceNone)
	crd.Namespace = ""
	crd.ResourceVersion = old.ResourceVersion
	crd.Generation = old.Generation
	strategy.PrepareForUpdate(ctx, crd, old)
	if crd.UID == "" {
		crd.UID = old.UID
	}
	if !old.CreationTimestamp.IsZero() {
		crd.CreationTimestamp = old.CreationTimestamp
	}
	if old.DeletionTimestamp != nil {
		crd.DeletionTimestamp = old.DeletionTimestamp
	}
	if old.DeletionGracePeriodSeconds != nil && crd.DeletionGracePeriodSeconds == nil {
		crd.DeletionGracePeriodSeconds = old.DeletionGracePeriodSeconds
	}
	errs := rest.ValidateUpdate(ctx, crd, old, strategy)
	if len(errs) > 0 {
		return errs, []string{}
	}
	return nil, recordWarnings(strategy.WarningsOnUpdate(ctx, crd, old))
}

// checkUpdate checks a CRD document as an update of old.
func (r *runner) checkUpdate(ctx context.Context, d Document, old *apiextensions.CustomResourceDefinition) (field.ErrorList, []string, error) {
	raw, err := json.Marshal(d.Object)
	if err != nil {
		return nil, nil, &InputError{File: d.File, Line: d.Line, Document: d.Index, Err: &DecodeError{Kind: KindCRD, Err: err}}
	}
	crd, err := r.codec.decodeCRD(raw, r.opts.noCEL)
	if err != nil {
		return nil, nil, &InputError{File: d.File, Line: d.Line, Document: d.Index, Err: &DecodeError{Kind: KindCRD, Err: err}}
	}
	errs, ws := r.codec.updateCRD(ctx, crd, old)
	return sortedErrors(errs), ws, nil
}
