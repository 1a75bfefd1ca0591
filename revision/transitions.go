package revision

import (
	"strings"

	"github.com/crdschema/crdschema/revision/internal/revdiff"
)

// maxTransitionPairs bounds the changing updates one transition rule
// tries.
const maxTransitionPairs = 12

// storedProbe is one probe object as the old revision stores it, and as it
// reads it back at the version (what a client would send to change
// another object into this one).
type storedProbe struct {
	stored, read map[string]any
}

// changingUpdate looks for an update the old revision accepts and a
// transition rule (oldSelf) of the new one rejects: each pair of probe
// objects, one stored and the other sent as its update. Such a rule
// runs only on updates and is not ratcheted, so unchanged objects and
// creates pass it; an update that changes the field (a field made
// immutable with self == oldSelf) is what it refuses. It returns the
// Change when one is found, else what kept probe objects from being
// stored (missed).
func (p *prober) changingUpdate(d revdiff.Change, n uint64) (ch Change, missed miss, found bool) {
	var probes []storedProbe
	for i, probe := range d.Probes {
		if i == maxProbes {
			break
		}
		_, stored, why := p.stored(d, probe, n, uint64(i))
		missed.add(why)
		if stored == nil {
			continue
		}
		r := p.old.Read(p.ctx, stored, p.version)
		if r.Object == nil || len(r.Errors) > 0 {
			continue
		}
		probes = append(probes, storedProbe{stored, r.Object})
	}
	tried := 0
	for i, from := range probes {
		for j, to := range probes {
			if i == j || tried == maxTransitionPairs {
				continue
			}
			tried++
			if ch, ok := p.tryUpdate(d, from, to); ok {
				return ch, missed, true
			}
		}
	}
	return Change{}, missed, false
}

// tryUpdate sends to.read as an update of from.stored under both
// revisions: accepted by the old one and refused by d's rule in the new
// one makes the change breaking.
func (p *prober) tryUpdate(d revdiff.Change, from, to storedProbe) (Change, bool) {
	if r := p.old.Write(p.ctx, to.read, from.stored); r.Object == nil || len(r.Errors) > 0 {
		return Change{}, false
	}
	errs := p.ownErrors(p.new.Write(p.ctx, to.read, from.stored).Errors, d)
	if len(errs) == 0 {
		return Change{}, false
	}
	ch := Change{Kind: d.Kind, Version: p.version, Path: d.Path.String(), Class: "breaking"}
	was, _ := valueAt(from.read, d.Path)
	now, _ := valueAt(to.read, d.Path)
	what := "an update"
	if f := d.Path.String(); f != "" && !strings.Contains(f, "[*]") {
		what = "an update changing " + f + " from " + compactJSON(was) + " to " + compactJSON(now)
	}
	ch.Detail = d.Detail + "; " + what + ", accepted by the old revision, fails (" + errText(errs[0]) + "): a transition rule runs on every update, unratcheted; creates and unchanged updates pass"
	return ch, true
}
