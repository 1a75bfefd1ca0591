package conversion_test

import (
	"context"
	"fmt"

	"github.com/crdschema/crdschema/conversion"
)

// A conversion webhook author's unit test: the conversion code runs as
// the apiserver runs a webhook, and its answer is checked as the
// apiserver checks it. Here the v1 → v2 conversion renames spec.replicas
// to spec.size, but also "tidies" the object's name, which the apiserver
// rejects; the labels it adds are kept, the generation it resets is
// silently restored.
func ExampleFromFunc() {
	convert := func(_ context.Context, objects []map[string]any, desired string) ([]any, error) {
		out := make([]any, len(objects))
		for i, o := range objects {
			spec := o["spec"].(map[string]any)
			spec["size"] = spec["replicas"]
			delete(spec, "replicas")
			o["apiVersion"] = desired
			meta := o["metadata"].(map[string]any)
			meta["generation"] = int64(1)
			meta["labels"] = map[string]any{"converted": "true"}
			if name, _ := meta["name"].(string); name == "My-Cron" {
				meta["name"] = "my-cron"
			}
			out[i] = o
		}
		return out, nil
	}
	stored := func(name string) map[string]any {
		return map[string]any{
			"apiVersion": "stable.example.com/v1", "kind": "CronTab",
			"metadata": map[string]any{"name": name, "namespace": "default", "generation": int64(4)},
			"spec":     map[string]any{"replicas": int64(3)},
		}
	}
	c := conversion.FromFunc(convert)
	out, err := c.Convert(context.Background(), []map[string]any{stored("nightly")}, "stable.example.com/v2")
	fmt.Println(out[0]["spec"], out[0]["metadata"], err == nil)
	_, err = c.Convert(context.Background(), []map[string]any{stored("My-Cron")}, "stable.example.com/v2")
	fmt.Println(err.Field)
	fmt.Println(err.Detail)
	// Output:
	// map[size:3] map[generation:4 labels:map[converted:true] name:nightly namespace:default] true
	// response.convertedObjects[0].metadata.name
	// conversion webhook for stable.example.com/v1, Kind=CronTab returned invalid object: must have the same name: My-Cron != my-cron
}
