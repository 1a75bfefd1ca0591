package revision

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/celhint"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objdiff"
	"github.com/crdschema/crdschema/internal/objpath"
	"github.com/crdschema/crdschema/internal/sample"
	"github.com/crdschema/crdschema/revision/internal/revdiff"
	"github.com/crdschema/crdschema/schema"
	"github.com/crdschema/crdschema/structural"
)

// prober runs the probes of one version's changes through the engine:
// objects stored under the old revision, read, created and updated under
// the new one.
type prober struct {
	ctx      context.Context
	old, new *crdschema.CRD
	version  string
	// storedAt is the version probe objects are stored at (storageVersion).
	storedAt string
	// oldSchema and newSchema are the version's schemas.
	oldSchema, newSchema *crdschema.Schema
	// bases are the objects probes start from: the smallest object of
	// the old schema, then (built on first need) a sample of it; nil
	// where none could be built.
	bases   [2]map[string]any
	sampled bool
	// ruleMessages are the messages of the new schema's rules (built on
	// first need).
	ruleMessages map[string]bool
}

// miss is why a change's probes did not run: the furthest step any probe
// object got to, and what stopped the first one there.
type miss struct {
	step missStep
	why  string
}

// missStep is a step a probe object did not get past.
type missStep int

const (
	notBuilt    missStep = iota // no probe could be set on a base object
	notStored                   // the old revision rejected every probe object
	notRead                     // stored, but a read at the version failed
	notWritten                  // read, but a create failed (defaults)
	rulesMasked                 // read, but other errors kept the rule from running
)

// note records a probe object stopped at step for why, unless one got
// further or as far.
func (m *miss) note(step missStep, why string) {
	if step > m.step || (step == m.step && m.why == "") {
		m.step, m.why = step, why
	}
}

// add records what stopped the probe objects of o, noted after m's.
func (m *miss) add(o miss) { m.note(o.step, o.why) }

// text says what happened to the probe objects of the version.
func (m miss) text(version string) string {
	switch m.step {
	case notStored:
		return "no probe object the old revision accepts could be built: " + m.why
	case notRead:
		return "probe objects were built and stored, but none could be read at " + version + " under the " + m.why
	case notWritten:
		return "probe objects were built and stored, but " + m.why
	case rulesMasked:
		return "probe objects were built and read, but other errors in them kept the CEL rules from running: " + m.why
	}
	return "no probe object could be built"
}

// newProber is a prober of version, whose schemas under each revision
// are oldSchema and newSchema (nil where none is needed).
func newProber(ctx context.Context, old, next *crdschema.CRD, version string, oldSchema, newSchema *crdschema.Schema) *prober {
	p := &prober{ctx: ctx, old: old, new: next, version: version, oldSchema: oldSchema, newSchema: newSchema}
	p.storedAt = storageVersion(old, next, version)
	return p
}

// base returns the i-th object probes start from (see bases).
func (p *prober) base(i int) map[string]any {
	if i == 1 && !p.sampled {
		p.sampled = true
		// Only a version the old revision serves (and a revision the
		// apiserver accepts) gives samples.
		if s, err := p.old.Version(p.version); err == nil {
			if objs := s.Samples(changesSeed, 1); len(objs) > 0 {
				p.bases[1] = objs[0]
			}
		}
	}
	return p.bases[i]
}

// stored is the probe object for a probe, as the old revision stores it,
// starting from the smallest object, else from a sample; nils when the
// old revision accepts neither, and why (missed).
func (p *prober) stored(d revdiff.Change, probe revdiff.Probe, n, i uint64) (obj, stored map[string]any, missed miss) {
	for b := range p.bases {
		obj, ok := p.probeObject(p.base(b), d.Path, probe, n, i)
		if !ok {
			continue
		}
		// The old revision may reject the object for its other fields
		// (a rule of an ancestor needing a sibling, a minimal object
		// missing what a rule wants): those fields get sampled values of
		// the old schema, and the probe is applied again.
		for round := 0; ; round++ {
			stored, errs := p.storeErrs(obj)
			if stored != nil {
				return obj, stored, missed
			}
			if len(errs) > 0 {
				missed.note(notStored, blocking(errs))
			}
			r := rand.New(rand.NewPCG(n, i+uint64(round+1)<<40))
			if round == repairRounds || !repairWith(p.oldSchema, obj, errs, r) || !revdiff.Set(obj, p.oldSchema.Structural(), d.Path, probe, r) {
				break
			}
		}
	}
	return nil, nil, missed
}

// repairRounds bounds the repairs of one probe object.
const repairRounds = 2

// try runs one probe. When another change's error elsewhere in the
// object keeps the CEL rules from running, the fields with those errors
// get values of the new schema (that the old one accepts too) and the
// probe runs again. false when it did not run, and why (missed).
func (p *prober) try(d revdiff.Change, probe revdiff.Probe, n, i uint64) (o outcome, missed miss, ok bool) {
	obj, stored, missed := p.stored(d, probe, n, i)
	if stored == nil {
		return outcome{}, missed, false
	}
	for round := 0; ; round++ {
		o, unread, ok := p.run(stored, d)
		missed.add(unread)
		if !ok {
			return o, missed, false
		}
		if !o.masked || !isRule(d.Kind) {
			return o, missed, true
		}
		if round == repairRounds || !repairWith(p.newSchema, obj, o.others, rand.New(rand.NewPCG(n, i+uint64(round)<<32))) {
			missed.note(rulesMasked, blocking(o.others))
			return o, missed, false
		}
		if stored, ok = p.store(obj); !ok {
			missed.note(rulesMasked, blocking(o.others))
			return o, missed, false
		}
	}
}

// blocking is the first of errs that is not the notice that rules were
// not run, for a Detail.
func blocking(errs field.ErrorList) string {
	for _, e := range errs {
		if !rulesBlocked(field.ErrorList{e}) {
			return errText(e)
		}
	}
	return "not known"
}

// repairWith gives each field with one of errs a value sampled from s,
// in place; false when it changed nothing.
func repairWith(s *crdschema.Schema, obj map[string]any, errs field.ErrorList, r *rand.Rand) bool {
	if s == nil || s.Structural() == nil {
		return false
	}
	changed := false
	for _, e := range errs {
		steps := objpath.ParseField(e.Field)
		node := schemaAt(s.Structural(), steps)
		if node == nil || len(steps) == 0 {
			continue
		}
		v, ok := sample.Value(node, r)
		if ok && setAt(obj, steps, v) {
			changed = true
		}
	}
	return changed
}

// schemaAt is the node of a field path's steps, nil when the schema has
// none: a bracketed step is an item of a list, else a map's key; a name
// is a property, else a map's key (the OpenAPI engine writes map keys as
// names).
func schemaAt(s *structural.Schema, steps []objpath.Element) *structural.Schema {
	for _, e := range steps {
		if s == nil {
			return nil
		}
		switch {
		case e.IsKey() && s.Items != nil:
			s = s.Items
		case !e.IsKey() && s.Properties[e.Name()] != nil:
			s = s.Properties[e.Name()]
		case s.AdditionalProperties != nil:
			s = s.AdditionalProperties.Schema
		default:
			return nil
		}
	}
	return s
}

// setAt sets the value at a field path's steps inside obj, whose
// containers must exist (the last key may be missing); false when they
// do not.
func setAt(obj map[string]any, steps []objpath.Element, v any) bool {
	var cur any = obj
	for i, e := range steps {
		last := i == len(steps)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[e.Name()] = v
				return true
			}
			cur = c[e.Name()]
		case []any:
			idx, err := strconv.Atoi(e.Name())
			if err != nil || idx < 0 || idx >= len(c) {
				return false
			}
			if last {
				c[idx] = v
				return true
			}
			cur = c[idx]
		default:
			return false
		}
	}
	return false
}

// outcome is what the new revision does to one probe object.
type outcome struct {
	// lost and added are the fields a read under the new revision drops
	// (or changes) and adds, compared with a read under the old one.
	lost, added []string
	// create and update are the errors of a create of the object as the
	// old revision reads it, and of an update of the unchanged stored
	// object as the new revision reads it.
	create, update field.ErrorList
	// masked is set when the CEL rules were not run at all (another
	// change's error elsewhere in the object blocks them): the probe
	// shows nothing about a rule; others are the errors elsewhere.
	masked bool
	others field.ErrorList
	// status is set for a field of .status under the status subresource:
	// a create drops it, the controller's status writes set it.
	status bool
	// unspecified is, when the update fails, a field of the value at the
	// change's path that the new schema does not specify (unspecifiedIn):
	// why ratcheting did not keep the unchanged value.
	unspecified string
}

// maxProbes bounds the probes one change tries.
const maxProbes = 8

// classify runs a change's probes and classifies it by the first that
// shows something (data lost, a create failing); by the first the old
// revision accepts when the probes were built to break the new schema;
// statically otherwise.
func (p *prober) classify(d revdiff.Change, n uint64) Change {
	if d.Kind == "default-changed" {
		return p.defaultChange(d, n)
	}
	ch := Change{Kind: d.Kind, Version: p.version, Path: d.Path.String()}
	var missed miss
	probes, limit := d.Probes, maxProbes
	if isRule(d.Kind) {
		probes, limit = append(slices.Clip(probes), p.ruleBoundary(d, n)...), maxProbes+celhint.MaxVariants+celhint.MaxRangeVariants+celhint.MaxItemEnumVariants+celhint.MaxEditVariants
	}
	var first *outcome
	ran := 0
	for i, probe := range probes {
		if i == limit {
			break
		}
		o, why, ok := p.try(d, probe, n, uint64(i))
		missed.add(why)
		if !ok {
			continue
		}
		ran++
		if len(o.lost) > 0 || len(o.create) > 0 || len(o.update) > 0 {
			return o.change(ch, d)
		}
		if first == nil {
			first = &o
		}
	}
	if isRule(d.Kind) && strings.Contains(d.Rule.Rule, "oldSelf") {
		c, why, ok := p.changingUpdate(d, n)
		if ok {
			return c
		}
		missed.add(why)
	}
	switch {
	case first != nil && d.Constructive:
		return first.change(ch, d)
	case first != nil && isRule(d.Kind):
		c := first.change(ch, d)
		c.Detail += fmt.Sprintf(" (%d probes the old revision accepts, at the rule's boundary: the fields it reads present and absent, the values it compares them with and their neighbours, their enum values)", ran)
		return c
	}
	return p.static(ch, d, first != nil, missed)
}

// ruleBoundary are the boundary probes of a rule's node (boundaryProbes)
// for the new rule and the old node's rules, from the node's value in the
// smallest probe object.
func (p *prober) ruleBoundary(d revdiff.Change, n uint64) []revdiff.Probe {
	if p.oldSchema == nil {
		return nil
	}
	node := revdiff.NodeAt(p.oldSchema.Structural(), d.Path)
	if node == nil {
		return nil
	}
	rules := []string{d.Rule.Rule}
	if node.Source != nil {
		for _, r := range node.Source.XValidations {
			rules = append(rules, r.Rule)
		}
	}
	var base any
	if b := p.base(0); b != nil {
		base, _ = valueAt(b, d.Path)
	}
	return boundaryProbes(node, base, rules, rand.New(rand.NewPCG(n, 1<<20)), rand.New(rand.NewPCG(n, 1<<21)), rand.New(rand.NewPCG(n, 1<<22)), rand.New(rand.NewPCG(n, 1<<23)))
}

// static is ch classified from the schemas alone (d.StaticClass), its
// Detail saying why no probe decided: probes ran and showed nothing
// (ran), or none could (and why: missed).
func (p *prober) static(ch Change, d revdiff.Change, ran bool, missed miss) Change {
	ch.Class, ch.Static = d.StaticClass, true
	switch {
	case len(d.Probes) == 0 && !isRule(d.Kind):
		// Nothing an object shows (server-side apply's merging).
		ch.Detail = d.Detail + "; " + d.StaticWhy
	case ran:
		ch.Detail = d.Detail + "; static approximation: " + d.StaticWhy
	case p.needsWebhook():
		// Never a guess that may read "safe": what the webhook does is
		// unknown.
		ch.Class, ch.Static = "unchecked", false
		ch.Detail = d.Detail + "; not checked: probes of " + p.version + " are stored and read through the CRD's conversion webhook, which Changes does not call (" + p.version + " is not the storage version of both revisions)"
	case len(p.new.Errors()) > 0 || len(p.old.Errors()) > 0:
		ch.Detail = d.Detail + "; static approximation (a revision the apiserver would not create serves no object to probe): " + d.StaticWhy
	case p.bases[0] == nil && p.bases[1] == nil:
		ch.Detail = d.Detail + "; static approximation (no object of the old revision could be built): " + d.StaticWhy
	default:
		ch.Detail = d.Detail + "; static approximation (" + missed.text(p.version) + "): " + d.StaticWhy
	}
	return ch
}

// change is the Change an outcome shows.
func (o *outcome) change(ch Change, d revdiff.Change) Change {
	at := " at " + ch.Version
	create, update, accepted := "a create with the old value", "an update of the unchanged stored object", "a create is accepted"
	if o.status {
		create = "a status write setting the old value (the controller's next one: a create drops .status under the status subresource)"
		update, accepted = "a status update leaving it unchanged", "a status write is accepted"
	}
	switch {
	case len(o.lost) > 0:
		ch.Class = "data-loss"
		ch.Detail = d.Detail + "; a read" + at + " of an object stored under the old revision drops " + strings.Join(o.lost, ", ")
	case len(o.create) == 0 && len(o.update) > 0:
		ch.Class = "breaking"
		ch.Detail = d.Detail + "; " + accepted + ", but " + update + " fails (" + errText(o.update[0]) + ")" + carveOut(d, o.unspecified)
	case len(o.create) == 0:
		ch.Class = "safe"
		ch.Detail = d.Detail + "; objects stored under the old revision read, create and update unchanged"
		if len(o.added) > 0 {
			ch.Detail = d.Detail + "; objects stored under the old revision now read with " + strings.Join(o.added, ", ")
		}
	case len(o.update) == 0:
		ch.Class = "ratcheted"
		ch.Detail = d.Detail + "; " + create + " fails (" + errText(o.create[0]) + "); " + update + " is accepted (ratcheting)"
	default:
		ch.Class = "breaking"
		ch.Detail = d.Detail + "; " + create + " fails (" + errText(o.create[0]) + "), and so does " + update + ", not ratcheted (" + errText(o.update[0]) + ")" + carveOut(d, o.unspecified)
	}
	return ch
}

// needsWebhook reports whether a probe at the version needs a conversion
// webhook no converter was given for: the old revision converts it to the
// version probes are stored at (storedAt), both revisions read it
// back from there, and the new revision's create and update convert it
// to its own storage version. Stored at the probed version (the new
// revision dropped the old storage version), only the last can.
func (p *prober) needsWebhook() bool {
	return (needsConverter(p.old) && p.version != p.storedAt) ||
		(needsConverter(p.new) && (p.version != p.storedAt || p.version != p.new.StorageVersion()))
}

// carveOut names the exception to validation ratcheting (KEP-4008) that
// makes a change breaking for unchanged objects, where it is one:
// unspecified is a field of the unchanged value the schema does not
// specify, "" when none.
func carveOut(d revdiff.Change, unspecified string) string {
	switch {
	case isRule(d.Kind) && strings.Contains(d.Rule.Rule, "oldSelf"):
		return ": transition rules (oldSelf) are not ratcheted"
	case d.Kind == "embedded-resource-changed":
		return ": the apiVersion, kind and metadata of embedded resources are validated without ratcheting"
	case unspecified != "":
		return ": a value holding a field the schema does not specify is never unchanged for ratcheting (" + unspecified + ")"
	}
	return ""
}

// probeObject is a copy of base with the probe applied.
func (p *prober) probeObject(base map[string]any, path revdiff.Path, probe revdiff.Probe, n, i uint64) (map[string]any, bool) {
	if base == nil || p.oldSchema == nil || p.oldSchema.Structural() == nil {
		return nil, false
	}
	obj := deepCopyMap(base)
	r := rand.New(rand.NewPCG(n, i))
	return obj, revdiff.Set(obj, p.oldSchema.Structural(), path, probe, r)
}

// store is obj as the old revision stores it after a create at the
// version (and a status update, for a .status the status subresource
// drops on create): false when the old revision rejects it.
func (p *prober) store(obj map[string]any) (map[string]any, bool) {
	stored, errs := p.storeErrs(obj)
	return stored, stored != nil && len(errs) == 0
}

// storeErrs is store with the errors of the old revision (nil stored
// then).
func (p *prober) storeErrs(obj map[string]any) (map[string]any, field.ErrorList) {
	s, err := p.old.Version(p.version)
	if err != nil {
		return nil, field.ErrorList{field.InternalError(nil, err)}
	}
	r := s.Apply(obj)
	if r.Object == nil || len(r.Errors) > 0 {
		return nil, r.Errors
	}
	created := r.Object
	if _, has := obj["status"]; has && s.HasStatusSubresource() {
		r = s.ApplyStatusUpdate(obj, created)
		if r.Object == nil || len(r.Errors) > 0 {
			return nil, r.Errors
		}
		created = r.Object
	}
	stored := p.old.Convert(p.ctx, created, p.storedAt)
	if stored.Object == nil {
		return nil, stored.Errors
	}
	return stored.Object, nil
}

// storageVersion is the version probe objects of version are stored at:
// the old revision's storage version, unless the new revision no longer
// defines it (an update the apiserver rejects, reported as version-removed, until
// a storage migration has rewritten every object at a version the new
// revision defines) and defines the probed version: objects stored at
// that one then, as after the migration. Stored at the old storage
// version, no probe object could be read under the new revision, and no
// change of the version could be probed.
func storageVersion(old, next *crdschema.CRD, version string) string {
	v := old.StorageVersion()
	if defined := next.Versions(); !slices.Contains(defined, v) && slices.Contains(defined, version) {
		return version
	}
	return v
}

// run reads stored under both revisions at the version, and creates and
// updates it under the new one. Only what change d can cause counts:
// fields at, above or below its path, lost only for a kind that prunes
// (canPrune), errors as ownErrors says. false when a read fails, and
// why (missed).
func (p *prober) run(stored map[string]any, d revdiff.Change) (o outcome, missed miss, ok bool) {
	path := d.Path
	before := p.old.Read(p.ctx, stored, p.version)
	after := p.new.Read(p.ctx, stored, p.version)
	switch {
	case len(before.Errors) > 0:
		missed.note(notRead, "old revision: "+errText(before.Errors[0]))
		return o, missed, false
	case len(after.Errors) > 0:
		missed.note(notRead, "new revision: "+errText(after.Errors[0]))
		return o, missed, false
	case before.Object == nil || after.Object == nil:
		return o, missed, false
	}
	lost, added := readDiff(before.Object, after.Object)
	o.added = related(added, path)
	if canPrune(d.Kind) {
		o.lost = related(lost, path)
	}
	if isStatus(path) && p.newSchema != nil && p.newSchema.HasStatusSubresource() {
		// .status is written through the status subresource.
		without := deepCopyMap(after.Object)
		delete(without, "status")
		create := p.newSchema.ApplyStatusUpdate(before.Object, without).Errors
		update := p.newSchema.ApplyStatusUpdate(after.Object, after.Object).Errors
		p.attribute(&o, d, create, update)
		o.status = true
		o.unspecified = p.unspecifiedIn(after.Object, d, o.update)
		return o, missed, true
	}
	create := p.new.Write(p.ctx, before.Object, nil).Errors
	update := p.new.Write(p.ctx, after.Object, stored).Errors
	p.attribute(&o, d, create, update)
	o.unspecified = p.unspecifiedIn(after.Object, d, o.update)
	return o, missed, true
}

// unspecifiedIn is, when update holds errors, the first field (in key
// order) of obj's value at d's path that the new schema does not specify
// (no property, no additionalProperties schema: an embedded resource's
// apiVersion and kind, unknown fields kept), "" when there is none. The
// apiserver's ratcheting compares an unchanged value field by field
// through the schema and takes a field without one as changed
// (CorrelatedObject), so such a value, and every value holding it, fails
// on update as on create.
func (p *prober) unspecifiedIn(obj map[string]any, d revdiff.Change, update field.ErrorList) string {
	if len(update) == 0 || len(d.Path) == 0 || p.newSchema == nil {
		return ""
	}
	v, ok := valueAt(obj, d.Path)
	if !ok {
		return ""
	}
	return unspecifiedField(v, revdiff.NodeAt(p.newSchema.Structural(), d.Path), d.Path.String())
}

// unspecifiedField is the first field of v, at path at, that schema s
// does not specify, "" when none. Only a map list's items are looked
// into: ratcheting compares an atomic list or a set as one value
// (reflect.DeepEqual), so a field without a schema in its items keeps
// nothing from being unchanged.
func unspecifiedField(v any, s *structural.Schema, at string) string {
	if s == nil {
		return ""
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			c := s.Field(k)
			if c == nil {
				return at + "." + k
			}
			if f := unspecifiedField(x[k], c, at+"."+k); f != "" {
				return f
			}
		}
	case []any:
		if s.ListType != "map" {
			return ""
		}
		for i, item := range x {
			if f := unspecifiedField(item, s.Items, at+"["+strconv.Itoa(i)+"]"); f != "" {
				return f
			}
		}
	}
	return ""
}

// attribute sets the errors of o from the errors of the create and the
// update: those change d can cause count (ownErrors), the others are what
// a repair may fix when they keep d's rule from running.
func (p *prober) attribute(o *outcome, d revdiff.Change, create, update field.ErrorList) {
	o.create, o.update = p.ownErrors(create, d), p.ownErrors(update, d)
	o.masked = (len(o.create) == 0 && rulesBlocked(create)) || (len(o.update) == 0 && rulesBlocked(update))
	all := append(slices.Clip(create), update...)
	if !isRule(d.Kind) {
		o.others = relatedErrors(all, d.Path, false)
		return
	}
	// Any error that is not the rule's own may keep it from running,
	// at its path too (a new maxLength there blocks every rule).
	for _, e := range all {
		if !ruleOwns(e, d.Rule) {
			o.others = append(o.others, e)
		}
	}
}

// rulesBlocked reports whether errs hold the error that says the CEL
// rules were not run.
func rulesBlocked(errs field.ErrorList) bool {
	for _, e := range errs {
		if strings.HasPrefix(e.Detail, "some validation rules were not checked") {
			return true
		}
	}
	return false
}

func isRule(kind string) bool { return kind == "rule-added" || kind == "rule-changed" }

func isStatus(path revdiff.Path) bool {
	return len(path) > 0 && path[0].Kind == revdiff.Prop && path[0].Name == "status"
}

// readDiff returns the paths where b lacks or changes a value of a
// (lost) and where b has a value a lacks (added), as field paths.
func readDiff(a, b map[string]any) (lost, added []string) {
	objdiff.Walk(a, b, jsonvalue.Equal, func(at objpath.Steps, d objdiff.Kind, bv any) {
		if d == objdiff.Added {
			added = append(added, at.String()+" = "+compactJSON(bv))
		} else {
			lost = append(lost, at.String())
		}
	})
	return lost, added
}

// compactJSON writes a value for a Detail, shortened.
func compactJSON(v any) string {
	s := fmt.Sprintf("%v", v)
	if b, err := json.Marshal(v); err == nil {
		s = string(b)
	}
	if r := []rune(s); len(r) > 80 {
		s = string(r[:77]) + "..."
	}
	return s
}

// related keeps the field paths at, above or below path (with its [*]
// matching any index or key); the value part of "path = value" is kept.
func related(paths []string, path revdiff.Path) []string {
	var out []string
	for _, p := range paths {
		f, _, _ := strings.Cut(p, " = ")
		if relates(f, path) {
			out = append(out, p)
		}
	}
	return out
}

// relatedErrors keeps the errors at, above or below path (want true),
// or those that are not (want false).
func relatedErrors(errs field.ErrorList, path revdiff.Path, want bool) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if relates(e.Field, path) == want {
			out = append(out, e)
		}
	}
	return out
}

// relates reports whether the field path f (spec.list[0].name, or
// spec.map.key as the OpenAPI engine writes map keys) is at, above or
// below path: a property step matches a name, an item step a bracketed
// step. A field at the root relates only to the root.
func relates(f string, path revdiff.Path) bool {
	steps := objpath.ParseField(f)
	if len(steps) == 0 {
		return len(path) == 0
	}
	for i := 0; i < len(steps) && i < len(path); i++ {
		st := path[i]
		if st.Kind == revdiff.Prop && (steps[i].IsKey() || steps[i].Name() != st.Name) {
			return false
		}
		if st.Kind == revdiff.Item && !steps[i].IsKey() {
			return false
		}
	}
	return true
}

// errText is an error for a Detail: the apiserver's message, its middle
// cut when a long probe value makes it longer than 200 characters.
func errText(e *field.Error) string {
	s := e.Error()
	if r := []rune(s); len(r) > 200 {
		s = string(r[:140]) + "..." + string(r[len(r)-57:])
	}
	return s
}

// canPrune reports whether a change of the kind can make a read under
// the new revision drop or change a stored field. The read path prunes
// fields its schema does not specify (a field removed, unknown fields no
// longer preserved, an embedded resource's implicit apiVersion, kind and
// metadata no longer kept or its metadata pruned, an object's fields
// under a node whose type is no longer object) and drops the nulls of
// fields neither nullable nor defaulted (nullable removed). Every other
// kind (rules, bounds, enums, patterns, formats, required fields, list
// types, int-or-string, defaults) changes no stored value on read: fields
// another change of the same revision drops are that change's loss.
func canPrune(kind string) bool {
	switch kind {
	case "field-removed", "preserve-unknown-fields-removed", "embedded-resource-changed", "type-changed", "nullable-removed":
		return true
	}
	return false
}

// ownErrors are the errors of errs that change d can cause, at, above or
// below its path: for a rule added or changed, that rule's errors only
// (ruleOwns); for any other kind, the errors no CEL rule produced.
func (p *prober) ownErrors(errs field.ErrorList, d revdiff.Change) field.ErrorList {
	var out field.ErrorList
	for _, e := range relatedErrors(errs, d.Path, true) {
		if isRule(d.Kind) {
			if ruleOwns(e, d.Rule) {
				out = append(out, e)
			}
			continue
		}
		if !p.fromRule(e) {
			out = append(out, e)
		}
	}
	return out
}

// ruleOwns reports whether the rule r produced e: the engine reports a
// rule that fails as its message, else "failed rule: <rule>", or as its
// messageExpression's result; a rule that cannot be evaluated (cost,
// runtime error) with an error ending in "rule: <message or rule>"; a
// messageExpression that cannot be with an error quoting it. A
// messageExpression's result cannot be predicted: an error of the rule's
// reason that neither another rule nor the blocking-error notice
// produced is taken as it (an OpenAPI error of the same type at the same
// field would be too).
func ruleOwns(e *field.Error, r schema.ValidationRule) bool {
	name := strings.TrimSpace(r.Message)
	failed := name
	if name == "" {
		name = strings.TrimSpace(r.Rule)
		failed = "failed rule: " + name
	}
	switch d := e.Detail; {
	case d == failed,
		strings.HasSuffix(d, "rule: "+name),
		strings.Contains(d, "for validation rule: "+name+", no further"):
		return true
	case r.MessageExpression == "":
		return false
	case strings.Contains(d, strconv.Quote(r.MessageExpression)):
		return true
	case strings.HasPrefix(d, "failed rule: "), rulesBlocked(field.ErrorList{e}), ruleRuntimeError(d):
		return false
	}
	return e.Type == reasonType(r.Reason)
}

// reasonType is the error type a failed rule of the reason is reported
// with.
func reasonType(reason *string) field.ErrorType {
	if reason != nil {
		switch *reason {
		case "FieldValueForbidden":
			return field.ErrorTypeForbidden
		case "FieldValueRequired":
			return field.ErrorTypeRequired
		case "FieldValueDuplicate":
			return field.ErrorTypeDuplicate
		}
	}
	return field.ErrorTypeInvalid
}

// ruleRuntimeError reports whether a detail is the engine's error for a
// rule or messageExpression it could not evaluate.
func ruleRuntimeError(d string) bool {
	for _, s := range []string{"evaluating rule: ", "for rule: ", "for validation rule: ", "messageExpression", "running out of cost budget"} {
		if strings.Contains(d, s) {
			return true
		}
	}
	return false
}

// fromRule reports whether a CEL rule of the new version's schema produced
// e: "failed rule: ...", a rule's message, a rule's runtime error.
func (p *prober) fromRule(e *field.Error) bool {
	if strings.HasPrefix(e.Detail, "failed rule: ") || ruleRuntimeError(e.Detail) {
		return true
	}
	if p.ruleMessages == nil {
		p.ruleMessages = map[string]bool{}
		if p.newSchema != nil {
			collectRuleMessages(p.newSchema.Structural(), p.ruleMessages)
		}
	}
	return p.ruleMessages[e.Detail]
}

// collectRuleMessages adds the messages of the rules of s and below to
// into.
func collectRuleMessages(s *structural.Schema, into map[string]bool) {
	if s == nil {
		return
	}
	if s.Source != nil {
		for _, r := range s.Source.XValidations {
			if m := strings.TrimSpace(r.Message); m != "" {
				into[m] = true
			}
		}
	}
	for _, c := range s.Properties {
		collectRuleMessages(c, into)
	}
	collectRuleMessages(s.Items, into)
	if s.AdditionalProperties != nil {
		collectRuleMessages(s.AdditionalProperties.Schema, into)
	}
}
