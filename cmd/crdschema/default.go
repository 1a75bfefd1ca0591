package main

// defaultVerb is the default verb applied to one routed object.
func defaultVerb(obj map[string]any, t *target) result {
	return result{object: obj}
}
