package conversion

import (
	"reflect"
	"slices"

	"github.com/crdschema/crdschema/structural"
)

// schemaClasses numbers the versions so that two versions share a number
// exactly when pruning, coercing and defaulting treat objects alike under
// both (sameVersion): many multi-version CRDs serve one schema at every
// version.
func schemaClasses(versions map[string]Version) map[string]int {
	names := make([]string, 0, len(versions))
	for n := range versions {
		names = append(names, n)
	}
	slices.Sort(names)
	class := make(map[string]int, len(names))
	for i, n := range names {
		class[n] = i
		for _, m := range names[:i] {
			if sameVersion(versions[n], versions[m]) {
				class[n] = class[m]
				break
			}
		}
	}
	return class
}

// sameVersion reports whether a and b have the same schemas for what the
// read path uses of them.
func sameVersion(a, b Version) bool {
	return sameSchema(a.Schema, b.Schema) && sameSchema(a.Defaults, b.Defaults)
}

// sameSchema compares the structural keywords of a and b, which are all
// that pruning, metadata and embedded-resource coercion and defaulting
// read (not Source: value validations do not matter to them).
func sameSchema(a, b *structural.Schema) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if a.Type != b.Type || a.Nullable != b.Nullable || a.HasDefault != b.HasDefault ||
		a.PreserveUnknownFields != b.PreserveUnknownFields || a.EmbeddedResource != b.EmbeddedResource ||
		a.IntOrString != b.IntOrString || a.ListType != b.ListType || a.MapType != b.MapType ||
		!slices.Equal(a.ListMapKeys, b.ListMapKeys) || !reflect.DeepEqual(a.Default, b.Default) ||
		len(a.Properties) != len(b.Properties) || !sameSchema(a.Items, b.Items) ||
		!sameAdditional(a.AdditionalProperties, b.AdditionalProperties) {
		return false
	}
	for k, p := range a.Properties {
		q, ok := b.Properties[k]
		if !ok || !sameSchema(p, q) {
			return false
		}
	}
	return true
}

// sameAdditional compares two additionalProperties.
func sameAdditional(a, b *structural.AdditionalProperties) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Allows == b.Allows && sameSchema(a.Schema, b.Schema)
}
