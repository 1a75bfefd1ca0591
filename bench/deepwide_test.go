package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/schema"
)

// deepWideSet is a schema nesting property n depth levels deep, compiled on
// both sides, and an object following it with wide unknown fields (u0, u1,
// ...) at every level: the shape of
// ../shared/findings/hostile/02-deep-wide-obj.json (there 4,990 levels of
// 10), where every level adds a removed path as long as the depth.
func deepWideSet(b *testing.B, depth, wide int) *objSet {
	sch := strings.Repeat(`{"type":"object","properties":{"n":`, depth) + `{"type":"string"}` + strings.Repeat(`}}`, depth)
	cs, err := crdschema.ParseSchema([]byte(sch))
	if err != nil {
		b.Fatal(err)
	}
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(sch), &v1); err != nil {
		b.Fatal(err)
	}
	in := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, in, nil); err != nil {
		b.Fatal(err)
	}
	ref, err := structuralschema.NewStructural(in)
	if err != nil {
		b.Fatal(err)
	}
	var o strings.Builder
	o.WriteString(`{"apiVersion":"h.io/v1","kind":"Thing","metadata":{"name":"x"},"n":`)
	for i := 0; i < depth-1; i++ {
		o.WriteByte('{')
		for j := 0; j < wide; j++ {
			fmt.Fprintf(&o, `"u%d":1,`, j)
		}
		o.WriteString(`"n":`)
	}
	o.WriteString(`{}` + strings.Repeat(`}`, depth-1) + `}`)
	docs, err := schema.ReadDocuments("deep-wide", []byte(o.String()))
	if err != nil {
		b.Fatal(err)
	}
	v := &version{cs: cs, ref: ref}
	return &objSet{objs: []map[string]any{docs[0].Object}, vs: []*version{v}, rs: []*refSchema{v.refSchema()}, json: [][]byte{[]byte(o.String())}, bytes: int64(o.Len())}
}

// BenchmarkPruneDeepWide prunes objects 500 and 2,000 levels deep with 10
// unknown fields at every level, returning the paths of the removed fields
// (5,000 and 20,000 paths, on average 250 and 1,000 keys long). The
// apiserver builds each path as a string from its stack of keys; crdschema
// links each removed field to its parent and renders each path once.
func BenchmarkPruneDeepWide(b *testing.B) {
	for _, depth := range []int{500, 2000} {
		b.Run(fmt.Sprintf("depth%d", depth), func(b *testing.B) {
			s := deepWideSet(b, depth, 10)
			b.Run("crdschema", func(b *testing.B) {
				opts := prune.Options{ResourceRoot: true, ReturnPaths: true}
				runMutating(b, s, func(i int, o map[string]any) {
					sink += len(prune.Prune(o, s.vs[i].cs.Structural(), opts))
				})
			})
			b.Run("reference", func(b *testing.B) {
				opts := structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}
				runMutating(b, s, func(i int, o map[string]any) {
					sink += len(structuralpruning.PruneWithOptions(o, s.rs[i].full, true, opts))
				})
			})
		})
	}
}
