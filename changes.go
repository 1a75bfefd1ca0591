package crdschema

// Change is one difference between two revisions of a CRD and what the
// apiserver does about it (CRD.Changes).
type Change struct {
	// Kind names the change: "field-removed", "type-changed",
	// "enum-narrowed", "required-added", "bounds-tightened",
	// "pattern-changed", "format-changed", "default-changed",
	// "nullable-removed", "preserve-unknown-fields-removed",
	// "list-type-changed", "rule-added", "rule-changed",
	// "version-removed", "version-unserved", "storage-version-changed",
	// "scope-changed", "names-changed" (docs/cli.md has the list).
	Kind string
	// Version is the CRD version the change is in; "" for a change of the
	// whole CRD.
	Version string
	// Path is the field in that version's objects, as the apiserver
	// writes field paths (spec.template.replicas); "" for a change of the
	// whole CRD or version.
	Path string
	// Class is what the apiserver does about it: "rejected" (the update of
	// the CRD fails), "data-loss" (stored objects lose data when read),
	// "ratcheted" (objects that break the new rule may keep their
	// unchanged values), "breaking" (clients sending the old shape fail)
	// or "safe".
	Class string
	// Detail says what will happen, in a sentence.
	Detail string
	// Static is set when the class is inferred from the schemas alone
	// rather than computed by running objects through the engine.
	Static bool
}

// Changes returns every change from old to the receiver, a new revision
// of the same CRD, classified by what the apiserver does about it, sorted
// by version, path and kind.
func (c *CRD) Changes(old *CRD) []Change {
	// Skeleton: issue 24 fills it in.
	return nil
}
