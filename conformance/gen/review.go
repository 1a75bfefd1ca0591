package gen

import "fmt"

// ReviewBatch returns a batch of n convert --review cases: ConversionReviews
// (v1 and v1beta1) holding a request of one to three objects and a
// webhook's answer with faults the apiserver rejects (uid, result, count,
// apiVersion, kind, name, namespace, uid, metadata, labels, annotations)
// or repairs (other metadata changes), objects already at the desired
// version and empty objects.
func (g *Gen) ReviewBatch(n int) *Batch {
	b := &Batch{Verb: "review"}
	for i := 0; i < n; i++ {
		in := &Input{Name: fmt.Sprintf("reviews%03d", i)}
		for d := g.r.Intn(3) + 1; d > 0; d-- {
			in.Docs = append(in.Docs, g.Review())
		}
		if g.chance(0.1) {
			in.List = true
		}
		b.Cases = append(b.Cases, in)
	}
	return b
}

// Review returns one ConversionReview with a request and an answer.
func (g *Gen) Review() map[string]any {
	g.counter++
	group := fmt.Sprintf("r%d.example.com", g.counter%10)
	from, to := "v1", "v2"
	if g.chance(0.5) {
		from, to = to, from
	}
	desired := group + "/" + to
	uid := fmt.Sprintf("req-%d", g.counter)
	var objects, converted []any
	for i := g.r.Intn(3) + 1; i > 0; i-- {
		av := group + "/" + from
		if g.chance(0.1) {
			av = desired // already converted: not sent
		}
		o := g.reviewObject(av, len(objects))
		objects = append(objects, o)
		switch {
		case o["apiVersion"] == desired:
			// not sent: no answer for it
		default:
			converted = append(converted, g.convertedObject(o, desired))
		}
	}
	if g.chance(0.08) {
		converted = append(converted, g.convertedObject(objects[0].(map[string]any), desired))
	} else if len(converted) > 0 && g.chance(0.06) {
		converted = converted[1:]
	}
	if len(converted) > 0 && g.chance(0.03) {
		converted[0] = pick[any](g, "not an object", int64(3), nil, []any{})
	}
	response := map[string]any{"uid": uid, "result": map[string]any{"status": "Success"}, "convertedObjects": converted}
	switch g.r.Intn(25) {
	case 0:
		response["uid"] = pick(g, "wrong", "")
	case 1:
		response["result"] = map[string]any{"status": "Failure", "message": "cannot convert this"}
	case 2:
		response["result"] = map[string]any{"status": pick(g, "Failure", "")}
	case 3:
		delete(response, "result")
	case 4:
		response["convertedObjects"] = []any{}
	}
	review := map[string]any{
		"apiVersion": pick(g, "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"),
		"kind":       "ConversionReview",
		"request":    map[string]any{"uid": uid, "desiredAPIVersion": desired, "objects": objects},
		"response":   response,
	}
	if g.chance(0.02) {
		delete(review, "response")
	}
	return review
}

// reviewObject is a request object.
func (g *Gen) reviewObject(apiVersion string, i int) map[string]any {
	if g.chance(0.04) {
		return map[string]any{"apiVersion": apiVersion, "kind": "CronTab"}
	}
	meta := map[string]any{"name": fmt.Sprintf("obj-%d", i)}
	if g.chance(0.6) {
		meta["namespace"] = pick(g, "ns1", "default")
	}
	if g.chance(0.5) {
		meta["uid"] = fmt.Sprintf("uid-%d", i)
	}
	if g.chance(0.5) {
		meta["labels"] = map[string]any{"app": "web"}
	}
	if g.chance(0.4) {
		meta["annotations"] = map[string]any{"note": "x"}
	}
	if g.chance(0.3) {
		meta["generation"] = int64(g.r.Intn(4) + 1)
	}
	o := map[string]any{"apiVersion": apiVersion, "kind": "CronTab", "metadata": meta,
		"spec": map[string]any{"image": "nginx", "replicas": int64(g.r.Intn(5))}}
	return o
}

// convertedObject is the webhook's answer for o, sometimes faulty.
func (g *Gen) convertedObject(o map[string]any, desired string) map[string]any {
	c := deepCopyValue(o).(map[string]any)
	c["apiVersion"] = desired
	if spec, ok := c["spec"].(map[string]any); ok {
		spec["size"] = spec["replicas"]
		delete(spec, "replicas")
	}
	meta, _ := c["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	switch g.r.Intn(28) {
	case 0:
		c["apiVersion"] = pick(g, o["apiVersion"], any("other.example.com/v2"), any("v2"))
	case 1:
		c["kind"] = pick[any](g, "Other", "", nil)
	case 2:
		meta["name"] = pick[any](g, "renamed", "")
	case 3:
		meta["namespace"] = "elsewhere"
	case 4:
		meta["uid"] = "changed"
	case 5:
		delete(c, "metadata")
	case 6:
		c["metadata"] = "a string"
	case 7:
		meta["labels"] = pick[any](g, map[string]any{"bad key!": "x"}, map[string]any{"app": int64(1)}, "app=web", nil)
	case 8:
		meta["annotations"] = pick[any](g, "note", map[string]any{"note": true}, map[string]any{"bad key!": "y"}, nil)
	case 9:
		meta["generation"] = int64(42)
		meta["finalizers"] = []any{"example.com/f"}
	case 10:
		meta["labels"] = map[string]any{"app": "web", "converted": "true"}
	case 11:
		delete(meta, "labels")
	case 12:
		c["extra"] = "unknown field"
	}
	return c
}

// deepCopyValue copies a generated JSON value.
func deepCopyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopyValue(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopyValue(e)
		}
		return l
	}
	return v
}
