package crdschema

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdschema/crdschema/conversion"
)

// Replay is what a new revision of a CRD does to one object the cluster
// stores under the old revision (CRD.Replay).
type Replay struct {
	// Stored is the object as the old revision stores it: converted to
	// the old storage version through the old revision's storage.
	Stored map[string]any
	// Losses are the fields a read under the new revision drops or
	// changes, at each version the new revision serves, that a read under
	// the old revision kept as they were; Step is "read at VERSION".
	Losses []Loss
	// Update are the errors the next write of the unchanged object gets
	// under the new revision (read at its version, written back as an
	// update of the stored object, with ratcheting); nil when accepted.
	Update field.ErrorList
	// Create are the errors a create of the object under the new revision
	// gets (as `kubectl apply` of it to a cluster that does not have it);
	// nil when accepted.
	Create field.ErrorList
	// OldUpdate and OldCreate are the same under the old revision: what
	// the object already failed before the new revision.
	OldUpdate, OldCreate field.ErrorList
	// Errors are why the object could not be replayed (another kind, a
	// version the old revision does not define, a failing conversion);
	// the other fields are then empty.
	Errors field.ErrorList
}

// Replay reports what the receiver, a new revision of old, does to obj,
// an object the cluster stores under old (typically from a dump of the
// cluster or a repository's examples; it is taken as stored). conv
// converts for a CRD with strategy Webhook (nil: none). obj is not
// changed.
func (c *CRD) Replay(ctx context.Context, old *CRD, obj map[string]any, conv *conversion.Converter) Replay {
	// Skeleton: issue 24 fills it in.
	return Replay{}
}
