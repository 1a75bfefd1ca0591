package embedded

import "sort"

// sortedKeys returns m's keys, sorted, for walkers that report in a
// deterministic order. It allocates one slice, and nothing for an
// empty map; slices.Sorted(maps.Keys(m)) gives the same keys but allocates
// its iterator and grows its slice, which the schema walkers, calling this
// for every node, cannot afford.
func sortedKeys[V any](m map[string]V) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
