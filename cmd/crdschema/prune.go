package main

// pruneVerb is the prune verb applied to one routed object.
func pruneVerb(obj map[string]any, t *target) result {
	return result{object: obj}
}
