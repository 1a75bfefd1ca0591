package revision

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/serving"
	"github.com/crdschema/crdschema/structural"
)

// presentationChanges are the changes of what a version shows of stored
// objects besides the objects themselves: its printer columns (kubectl
// get) and its scale subresource (kubectl scale, autoscalers). Both are
// read off the engine (CRD.Columns, CRD.Scale) on a marker object of the
// version: every string and integer field of both revisions' schemas
// holds a value of its own, so the value a path yields names the path.
func presentationChanges(old, next *crdschema.CRD, version string) []Change {
	if !slices.Contains(old.ServedVersions(), version) || !slices.Contains(next.ServedVersions(), version) {
		return nil
	}
	oldS, _ := old.Version(version)
	newS, _ := next.Version(version)
	if oldS == nil || newS == nil {
		return nil
	}
	m := newMarkers(old, version, oldS.Structural(), newS.Structural())
	var out []Change
	if ch, ok := columnsChange(old, next, version, m.obj); ok {
		out = append(out, ch)
	}
	if ch, ok := scaleChange(old, next, version, m); ok {
		out = append(out, ch)
	}
	return out
}

// markers is a marker object and the field path of each of its values.
type markers struct {
	obj   map[string]any
	paths map[string]string
	next  int
}

// maxMarkerDepth bounds the nesting of a marker object.
const maxMarkerDepth = 12

// newMarkers builds the marker object of a version from the schemas.
func newMarkers(crd *crdschema.CRD, version string, schemas ...*structural.Schema) *markers {
	gk := crd.GroupKind()
	apiVersion := version
	if gk.Group != "" {
		apiVersion = gk.Group + "/" + version
	}
	m := &markers{obj: map[string]any{}, paths: map[string]string{}, next: 1001}
	for _, s := range schemas {
		m.fill(m.obj, s, "", 0)
	}
	m.obj["apiVersion"], m.obj["kind"] = apiVersion, gk.Kind
	m.obj["metadata"] = map[string]any{"name": "probe", "namespace": "default"}
	return m
}

// fill gives every property of s below obj a marker value (objects are
// descended into; lists, maps and booleans are left out: scale paths and
// most columns name neither).
func (m *markers) fill(obj map[string]any, s *structural.Schema, at string, depth int) {
	if s == nil || depth > maxMarkerDepth {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		if depth == 0 && (k == "apiVersion" || k == "kind" || k == "metadata") {
			continue
		}
		c, path := s.Properties[k], at+"."+k
		switch {
		case c.Type == "object":
			child, _ := obj[k].(map[string]any)
			if child == nil {
				if _, taken := obj[k]; taken {
					continue
				}
				child = map[string]any{}
				obj[k] = child
			}
			m.fill(child, c, path, depth+1)
		case c.Type == "integer" || c.IntOrString:
			m.put(obj, k, int64(m.next), path)
		case c.Type == "string":
			m.put(obj, k, "m"+strconv.Itoa(m.next), path)
		}
	}
}

// put sets a marker unless the field holds one already.
func (m *markers) put(obj map[string]any, k string, v any, path string) {
	if _, taken := obj[k]; taken {
		return
	}
	obj[k] = v
	m.paths[fmt.Sprint(v)] = path
	m.next++
}

// pathOf is the path a value read off the marker object came from, ""
// for a value no marker holds.
func (m *markers) pathOf(v any) string {
	return m.paths[fmt.Sprint(v)]
}

// columnsChange compares the version's printer columns.
func columnsChange(old, next *crdschema.CRD, version string, obj map[string]any) (Change, bool) {
	now := time.Unix(0, 0).UTC()
	before, _, errs := old.Columns(obj, now)
	after, _, errs2 := next.Columns(obj, now)
	if len(errs) > 0 || len(errs2) > 0 {
		return Change{}, false
	}
	diffs := columnDiffs(before, after)
	if len(diffs) == 0 {
		return Change{}, false
	}
	return Change{Kind: "printer-columns-changed", Version: version, Class: "safe",
		Detail: "printer columns: " + strings.Join(diffs, "; ") + ": what kubectl get prints, nothing stored or accepted"}, true
}

// columnDiffs lists the columns added, removed and changed (by name;
// descriptions aside).
func columnDiffs(before, after []serving.Column) []string {
	// A name may repeat (the table's own Name column, a column defined
	// twice): the n-th column of a name is compared with the n-th.
	byName := func(cols []serving.Column) (map[string]serving.Column, []string) {
		out, keys, seen := map[string]serving.Column{}, make([]string, len(cols)), map[string]int{}
		for i, c := range cols {
			seen[c.Name]++
			keys[i] = c.Name + "#" + strconv.Itoa(seen[c.Name])
			out[keys[i]] = c
		}
		return out, keys
	}
	b, bk := byName(before)
	a, ak := byName(after)
	var out []string
	for i, c := range before {
		n, ok := a[bk[i]]
		switch {
		case !ok:
			out = append(out, "column "+c.Name+" ("+c.JSONPath+") removed")
		case n.JSONPath != c.JSONPath:
			out = append(out, "column "+c.Name+" reads "+n.JSONPath+" (was "+c.JSONPath+")")
		case n.Type != c.Type || n.Format != c.Format || n.Priority != c.Priority:
			out = append(out, fmt.Sprintf("column %s is %s/%s priority %d (was %s/%s priority %d)", c.Name, n.Type, n.Format, n.Priority, c.Type, c.Format, c.Priority))
		}
	}
	for i, c := range after {
		if _, ok := b[ak[i]]; !ok {
			out = append(out, "column "+c.Name+" ("+c.JSONPath+") added")
		}
	}
	return out
}

// scaleView is what a version's /scale shows of the marker object: the
// paths its replicas and selector come from ("" when none), or none.
type scaleView struct {
	has                    bool
	spec, status, selector string
}

// missingSpec is serving.Scale's error for a spec replicas path the
// object lacks.
var missingSpec = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`the spec replicas field "([^"]*)" does not exist`)
})

// viewScale reads the scale subresource of the marker object.
func viewScale(crd *crdschema.CRD, m *markers) scaleView {
	scale, errs := crd.Scale(m.obj)
	if len(errs) > 0 {
		if errs[0].Type == field.ErrorTypeNotFound {
			return scaleView{}
		}
		v := scaleView{has: true}
		if sub := missingSpec().FindStringSubmatch(errs[0].Detail); sub != nil {
			v.spec = sub[1]
		}
		return v
	}
	v := scaleView{has: true}
	if spec, ok := scale["spec"].(map[string]any); ok {
		v.spec = m.pathOf(spec["replicas"])
	}
	if status, ok := scale["status"].(map[string]any); ok {
		v.status = m.pathOf(status["replicas"])
		v.selector = m.pathOf(status["selector"])
	}
	return v
}

// scaleChange compares the version's scale subresource.
func scaleChange(old, next *crdschema.CRD, version string, m *markers) (Change, bool) {
	b, a := viewScale(old, m), viewScale(next, m)
	ch := Change{Kind: "scale-changed", Version: version, Class: "breaking"}
	switch {
	case b == a:
		return Change{}, false
	case !b.has:
		ch.Class, ch.Detail = "safe", "scale subresource added: a new endpoint; nothing stored or accepted before changes"
		return ch, true
	case !a.has:
		ch.Detail = "scale subresource removed: kubectl scale and autoscalers of stored objects get NotFound"
		return ch, true
	}
	var diffs []string
	moved := func(name, was, now string) {
		if was != now {
			diffs = append(diffs, name+" "+orNone(was)+" → "+orNone(now))
		}
	}
	moved("specReplicasPath", b.spec, a.spec)
	moved("statusReplicasPath", b.status, a.status)
	moved("labelSelectorPath", b.selector, a.selector)
	if b.spec == a.spec && b.status == a.status && b.selector == "" {
		ch.Class = "safe"
		ch.Detail = "scale subresource: " + strings.Join(diffs, "; ") + ": a selector where there was none"
		return ch, true
	}
	ch.Detail = "scale subresource: " + strings.Join(diffs, "; ") + ": the /scale of a stored object reads other fields (a missing replicas field reads 0 until its object is rewritten), what kubectl scale and autoscalers see and write"
	return ch, true
}

func orNone(path string) string {
	if path == "" {
		return "(none)"
	}
	return path
}
