package main

// applyVerb is the apply verb applied to one routed object.
func applyVerb(obj map[string]any, t *target) result {
	return result{object: obj}
}
