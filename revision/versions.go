package revision

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/revision/internal/revdiff"
)

// versionAdded classifies a version the new revision adds. Objects stay
// stored at the old revision's storage version; a read at the new one
// converts them (strategy None: apiVersion only) and prunes what its
// schema lacks. Probes are objects of the storage version holding the
// fields it has and the new version does not (revdiff's field-removed and
// kin between the two schemas), stored under the old revision and read at
// the new version under the new one: a field lost is "data-loss" (a
// client that writes back what it read loses it for good). With strategy
// Webhook the read is the webhook's: "unchecked", never "safe".
func versionAdded(ctx context.Context, old, next *crdschema.CRD, version string) Change {
	served := slices.Contains(next.ServedVersions(), version)
	ch := Change{Kind: "version-added", Version: version, Class: "safe"}
	added := fmt.Sprintf("%s added (served: %t)", version, served)
	if !served {
		ch.Detail = added + "; no request reaches it"
		return ch
	}
	from := old.StorageVersion()
	if needsConverter(old) || needsConverter(next) {
		ch.Class = "unchecked"
		ch.Detail = added + "; a read at " + version + " of an object stored at " + from + " is converted by the CRD's webhook: not checked (no converter)"
		return ch
	}
	lost, probed := lostBetween(ctx, old, next, from, func(stored map[string]any) (before, after map[string]any) {
		return readObject(ctx, old, stored, from), readObject(ctx, next, stored, version)
	}, version)
	switch {
	case len(lost) > 0:
		ch.Class = "data-loss"
		ch.Detail = added + "; a read at " + version + " of an object stored at " + from + " drops " + strings.Join(lost, ", ") + " (conversion None): a client writing back what it read loses them"
	case probed:
		ch.Detail = added + "; objects stored at " + from + " read at " + version + " lose nothing"
	default:
		ch.Detail = added + "; " + version + " has every field of " + from
	}
	return ch
}

// readObject is a read of stored at version, nil when it fails.
func readObject(ctx context.Context, crd *crdschema.CRD, stored map[string]any, version string) map[string]any {
	r := crd.Read(ctx, stored, version)
	if len(r.Errors) > 0 {
		return nil
	}
	return r.Object
}

// lostBetween runs probes for the fields of version from (under old)
// that version to (under next) lacks: each is an object of from holding
// such a field, stored under old; through gives the two objects to
// compare. It returns the fields lost (apiVersion aside), and whether any
// probe ran.
func lostBetween(ctx context.Context, old, next *crdschema.CRD, from string, through func(stored map[string]any) (before, after map[string]any), to string) ([]string, bool) {
	fromS, _ := old.Version(from)
	toS, _ := next.Version(to)
	if fromS == nil || toS == nil {
		return nil, false
	}
	p := newProber(ctx, old, next, from, fromS, toS)
	p.bases[0], _ = smallestObject(old, fromS, from)
	probed := false
	for i, d := range revdiff.Diff(fromS.Structural(), toS.Structural(), changesSeed) {
		if !canPrune(d.Kind) {
			continue
		}
		for j, probe := range d.Probes {
			if j == maxProbes {
				break
			}
			_, stored, _ := p.stored(d, probe, uint64(i), uint64(j))
			if stored == nil {
				continue
			}
			before, after := through(stored)
			if before == nil || after == nil {
				continue
			}
			probed = true
			delete(before, "apiVersion")
			delete(after, "apiVersion")
			if lost, _ := readDiff(before, after); len(lost) > 0 {
				return lost, true
			}
		}
	}
	return nil, probed
}

// rewritten is stored as the new revision reads it at version, and as it
// reads it again after the unchanged object is written back (stored at
// the new storage version); nils when a step fails.
func rewritten(ctx context.Context, next *crdschema.CRD, stored map[string]any, version string) (before, after map[string]any) {
	r := next.Read(ctx, stored, version)
	if len(r.Errors) > 0 {
		return nil, nil
	}
	w := next.Write(ctx, r.Object, stored)
	if w.Object == nil || len(w.Errors) > 0 {
		return nil, nil
	}
	return r.Object, readObject(ctx, next, w.Object, version)
}

// needsConverter reports a CRD with strategy Webhook without a converter:
// it cannot convert between versions.
func needsConverter(crd *crdschema.CRD) bool {
	return crd.ConversionStrategy() == "Webhook" && crd.Converter() == nil
}
