package crdfake

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/embedded"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/apimachinery/pkg/util/uuid"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The write path. A create or update request is decoded, defaulted,
// prepared and validated at the version it names (crdschema's pipeline),
// its managed fields recorded, then converted to the storage version and
// stored; the response is the stored object read back at the request's
// version, as the apiserver's storage codec returns it.

func (s *semantics) create(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.Create(ctx, obj, opts...)
	}
	o := &client.CreateOptions{}
	o.ApplyOptions(opts)
	m, err := toMap(obj, t.gvk)
	if err != nil {
		return err
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	out, err := s.prepareCreate(ctx, t, m, managerName(o.FieldManager))
	if err != nil {
		return err
	}
	if out, err = s.commitCreate(ctx, t, out, isDryRun(o.DryRun)); err != nil {
		return err
	}
	return s.decode(out, obj)
}

// prepareCreate is a create request's body m (the caller's) at the
// target's version as the registry holds it before storage: the
// namespace of a cluster-scoped kind cleared, a name generated from
// generateName (before validation, so errors name it), decoded, defaulted,
// prepared and validated (Schema.Apply), the system fields filled in
// (uid, creationTimestamp, generation 1) and the managed fields of
// manager recorded (manager "": m carries them, as an apply's result
// does).
func (s *semantics) prepareCreate(ctx context.Context, t *target, m map[string]any, manager string) (map[string]any, error) {
	md := metadata(m)
	if !t.k.namespaced {
		delete(md, "namespace")
	}
	delete(md, "deletionTimestamp")
	delete(md, "deletionGracePeriodSeconds")
	if metaString(m, "name") == "" && metaString(m, "generateName") != "" {
		md["name"] = s.generateName(t, metaString(m, "namespace"), metaString(m, "generateName"))
	}
	sch, err := schemaAt(t.k, t.v.name)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	r := sch.Apply(m)
	s.warnPruned(ctx, r)
	if t.k.namespaced && r.Object != nil && metaString(m, "namespace") == "" {
		r.Errors = requireNamespace(r.Errors)
	}
	if err := invalid(t.gvk, metaString(m, "name"), r); err != nil {
		return nil, err
	}
	s.warnFinalizers(ctx, r.Object, nil)
	out := r.Object
	omd := metadata(out)
	omd["generation"] = int64(1)
	omd["uid"] = string(uuid.NewUUID())
	omd["creationTimestamp"] = now()
	if manager != "" {
		out = s.recordUpdate(t, "", nil, out, manager)
	}
	return out, nil
}

// celSkipped is the custom resource strategy's error when a blocking
// error keeps the CEL rules from running.
const celSkipped = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// requireNamespace adds to the errors of a create validated as kubectl
// sends it, in "default" (Schema.Apply), what a client sending no
// namespace meets: metadata.namespace Required, a blocking error, which
// the strategy reports with its root error when the CEL rules are
// skipped. (CEL errors Schema.Apply found are kept; the apiserver would
// not evaluate the rules. A root entry validating without a default
// namespace would make this exact.)
func requireNamespace(errs field.ErrorList) field.ErrorList {
	errs = append(errs, field.Required(field.NewPath("metadata", "namespace"), ""))
	skipped := false
	for _, e := range errs {
		skipped = skipped || (e.Field == "<nil>" && e.Detail == celSkipped)
	}
	if !skipped {
		errs = append(errs, field.Invalid(nil, nil, celSkipped))
	}
	crdschema.SortErrors(errs)
	return errs
}

// generateName is the apiserver's name generator: at most 58 bytes of
// base and five random characters (a name taken is drawn again, as the
// apiserver retries a create whose generated name exists).
func (s *semantics) generateName(t *target, namespace, base string) string {
	if len(base) > 58 {
		base = base[:58]
	}
	for {
		name := base + utilrand.String(5)
		if _, taken := s.store.objects[keyOf(t.k, namespace, name)]; !taken {
			return name
		}
	}
}

// commitCreate stores a prepared object (unless dryRun) and returns the
// response.
func (s *semantics) commitCreate(ctx context.Context, t *target, obj map[string]any, dryRun bool) (map[string]any, error) {
	name := metaString(obj, "name")
	key := keyOf(t.k, metaString(obj, "namespace"), name)
	if _, exists := s.store.objects[key]; exists {
		return nil, apierrors.NewAlreadyExists(t.k.gr(), name)
	}
	if metaString(obj, "resourceVersion") != "" {
		// etcd's answer, which the apiserver passes on as it is.
		return nil, serverError(errors.New("resourceVersion should not be set on objects to be created"))
	}
	stored, err := s.toStorage(ctx, t, obj)
	if err != nil {
		return nil, err
	}
	if dryRun {
		return s.read(ctx, t, stored)
	}
	metadata(stored)["resourceVersion"] = s.store.nextRV()
	s.store.put(key, stored, watch.Added)
	return s.read(ctx, t, stored)
}

func (s *semantics) update(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.Update(ctx, obj, opts...)
	}
	o := &client.UpdateOptions{}
	o.ApplyOptions(opts)
	return s.updateBody(ctx, t, obj, "", o)
}

// updateBody is an update of the main resource or of the status
// subresource with obj as the request body.
func (s *semantics) updateBody(ctx context.Context, t *target, obj client.Object, sub string, o *client.UpdateOptions) error {
	m, err := toMap(obj, t.gvk)
	if err != nil {
		return err
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	w, err := s.openUpdate(ctx, t, metaString(m, "namespace"), metaString(m, "name"))
	if err != nil {
		return err
	}
	out, err := s.updateLocked(ctx, w, m, sub, managerName(o.FieldManager))
	if err != nil {
		return err
	}
	if out, err = s.commitUpdate(ctx, w, out, isDryRun(o.DryRun)); err != nil {
		return err
	}
	return s.decode(out, obj)
}

// update is one update request in progress: the stored object and the
// live object it is served as at the request's version.
type update struct {
	t      *target
	key    objectKey
	stored map[string]any
	live   map[string]any
}

// openUpdate reads the object an update request names (NotFound when
// there is none: custom resources are not created by an update).
func (s *semantics) openUpdate(ctx context.Context, t *target, namespace, name string) (*update, error) {
	key := keyOf(t.k, namespace, name)
	stored, ok := s.store.objects[key]
	if !ok {
		return nil, notFound(t, name)
	}
	live, err := s.read(ctx, t, stored)
	if err != nil {
		return nil, err
	}
	return &update{t: t, key: key, stored: stored, live: live}, nil
}

// updateLocked is the update request m (the decoded body, at the target's
// version) of the main resource (sub "") or of the status subresource, up
// to its storage: decoded, prepared and validated against the live object
// (Schema.ApplyUpdate, ApplyStatusUpdate), the resourceVersion checked
// (custom resources take no unconditional update), the metadata the
// registry keeps from the live object, the managed fields of manager
// (manager "": m carries them).
func (s *semantics) updateLocked(ctx context.Context, w *update, m map[string]any, sub, manager string) (map[string]any, error) {
	t := w.t
	sch, err := schemaAt(t.k, t.v.name)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	var r crdschema.Result
	if sub == "status" {
		r = sch.ApplyStatusUpdate(m, w.live)
	} else {
		r = sch.ApplyUpdate(m, w.live)
	}
	name := metaString(m, "name")
	s.warnPruned(ctx, r)
	if r.Object == nil {
		return nil, invalid(t.gvk, name, r)
	}
	switch rv := metaString(m, "resourceVersion"); {
	case rv == "":
		return nil, apierrors.NewInvalid(kschema.GroupKind{Group: t.k.gk.Group, Kind: t.k.plural}, name, field.ErrorList{
			field.Invalid(field.NewPath("metadata", "resourceVersion"), uint64(0), "must be specified for an update"),
		})
	case rv != metaString(w.stored, "resourceVersion"):
		return nil, conflict(t, name)
	}
	if err := invalid(t.gvk, name, r); err != nil {
		return nil, err
	}
	out := r.Object
	if sub == "" {
		s.warnFinalizers(ctx, out, w.live)
	}
	keepServerMetadata(out, w.live, sub == "" && !embedded.SameExceptMetadata(out, w.live))
	if manager != "" {
		out = s.recordUpdate(t, sub, w.live, out, manager)
	}
	keepManagedFieldsTimes(out, w.live)
	return out, nil
}

// commitUpdate stores the updated object unless dryRun or nothing
// changed (the stored bytes are the same: no new resourceVersion, no
// event), deletes it when its last finalizer is gone while it is being
// deleted, and returns the response.
func (s *semantics) commitUpdate(ctx context.Context, w *update, obj map[string]any, dryRun bool) (map[string]any, error) {
	stored, err := s.toStorage(ctx, w.t, obj)
	if err != nil {
		return nil, err
	}
	metadata(stored)["resourceVersion"] = metaString(w.stored, "resourceVersion")
	if sameJSON(stored, w.stored) {
		return s.read(ctx, w.t, w.stored)
	}
	if dryRun {
		return s.read(ctx, w.t, stored)
	}
	if deletes(stored, w.stored) {
		s.store.remove(w.key)
		return s.read(ctx, w.t, stored)
	}
	metadata(stored)["resourceVersion"] = s.store.nextRV()
	s.store.put(w.key, stored, watch.Modified)
	return s.read(ctx, w.t, stored)
}

// deletes is the generic registry's ShouldDeleteDuringUpdate: the last
// finalizer of an object being deleted (without grace period) is gone.
func deletes(obj, old map[string]any) bool {
	if len(finalizers(obj)) > 0 || metaString(old, "deletionTimestamp") == "" {
		return false
	}
	g, ok := metadata(old)["deletionGracePeriodSeconds"]
	return !ok || g == nil || g == int64(0) || g == float64(0)
}

// keepServerMetadata sets what the generic registry takes from the live
// object on update: the generation (plus one when anything outside
// metadata changed, as for every custom resource), the uid when the
// request has none, the creation and deletion timestamps, the deletion
// grace period when the request has none.
func keepServerMetadata(obj, live map[string]any, changed bool) {
	md, liveMD := metadata(obj), metadata(live)
	gen := int64Of(liveMD["generation"])
	if gen == 0 {
		gen = 1
	}
	if changed {
		gen++
	}
	md["generation"] = gen
	if metaString(obj, "uid") == "" {
		copyKey(md, liveMD, "uid")
	}
	for _, k := range []string{"creationTimestamp", "deletionTimestamp"} {
		if ts := metaString(live, k); ts != "" {
			md[k] = utcTimestamp(ts)
		}
	}
	if _, ok := md["deletionGracePeriodSeconds"]; !ok {
		copyKey(md, liveMD, "deletionGracePeriodSeconds")
	}
}

func int64Of(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return 0
}

// utcTimestamp is a stored timestamp as the apiserver reads it back
// (metav1.Time: RFC 3339 in UTC); unparsable text is kept.
func utcTimestamp(ts string) string {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format(time.RFC3339)
}

// now is the time the apiserver writes into timestamps: seconds, UTC.
func now() string {
	return metav1.Now().UTC().Format(time.RFC3339)
}

func (s *semantics) delete(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.Delete(ctx, obj, opts...)
	}
	o := &client.DeleteOptions{}
	o.ApplyOptions(opts)
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	return s.deleteLocked(ctx, t, keyOf(t.k, obj.GetNamespace(), obj.GetName()), o)
}

// deleteLocked deletes the object under key as the generic registry does
// for a kind without graceful deletion: the preconditions checked; an
// object with finalizers is only marked (deletionTimestamp now, unless it
// has one, deletionGracePeriodSeconds 0, generation + 1 the first time),
// any other is removed. Propagation policies are not modelled (there is
// no garbage collector to finish a foreground or orphan deletion).
func (s *semantics) deleteLocked(ctx context.Context, t *target, key objectKey, o *client.DeleteOptions) error {
	stored, ok := s.store.objects[key]
	if !ok {
		return notFound(t, key.name)
	}
	if err := checkPreconditions(t, key.name, stored, o.Preconditions); err != nil {
		return err
	}
	dryRun := isDryRun(o.DryRun)
	if len(finalizers(stored)) == 0 {
		if !dryRun {
			s.store.remove(key)
		}
		return nil
	}
	w := &update{t: t, key: key, stored: stored}
	live, err := s.read(ctx, t, stored)
	if err != nil {
		return err
	}
	w.live = live
	out := deepCopy(live)
	markAsDeleting(out)
	_, err = s.commitUpdate(ctx, w, out, dryRun)
	return err
}

// markAsDeleting is the generic registry's: deletionTimestamp now (kept
// when already set), deletionGracePeriodSeconds 0, the generation bumped
// when the deletion starts.
func markAsDeleting(obj map[string]any) {
	md := metadata(obj)
	if metaString(obj, "deletionTimestamp") == "" {
		if g := int64Of(md["generation"]); g > 0 {
			md["generation"] = g + 1
		}
		md["deletionTimestamp"] = now()
	}
	md["deletionGracePeriodSeconds"] = int64(0)
}

// checkPreconditions is rest.BeforeDelete's check of the delete options'
// preconditions (its conflict names the kind where a resource would be).
func checkPreconditions(t *target, name string, stored map[string]any, p *metav1.Preconditions) error {
	if p == nil {
		return nil
	}
	gr := kschema.GroupResource{Group: t.k.gk.Group, Resource: t.k.gk.Kind}
	if p.UID != nil && string(*p.UID) != metaString(stored, "uid") {
		return apierrors.NewConflict(gr, name, fmt.Errorf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", *p.UID, metaString(stored, "uid")))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != metaString(stored, "resourceVersion") {
		return apierrors.NewConflict(gr, name, fmt.Errorf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", *p.ResourceVersion, metaString(stored, "resourceVersion")))
	}
	return nil
}

func (s *semantics) deleteAllOf(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteAllOfOption) error {
	t, err := s.route(ctx, c, obj)
	if t == nil {
		if err != nil {
			return err
		}
		return c.DeleteAllOf(ctx, obj, opts...)
	}
	o := &client.DeleteAllOfOptions{}
	o.ApplyOptions(opts)
	if err := checkFieldSelector(t, o.FieldSelector); err != nil {
		return err
	}
	s.store.mu.Lock()
	defer s.store.mu.Unlock()
	for _, key := range s.store.list(t.k, o.Namespace) {
		live, err := s.read(ctx, t, s.store.objects[key])
		if err != nil {
			return err
		}
		if !s.selects(t, live, o.LabelSelector, o.FieldSelector) {
			continue
		}
		if err := s.deleteLocked(ctx, t, key, &o.DeleteOptions); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}
