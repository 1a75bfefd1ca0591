package oracle

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// convert reads a stored object at the --to version with the apiserver's
// storage codec pieces (crdConversionRESTOptionsGetter): the decoder's
// schema coercer with the stored version's schema (malformed metadata
// dropped, generation repaired), its defaulter, the CRD's converter
// (conversion.NewCRConverterFactory) and the converter's schema coercer
// with the requested version's schema. A read the converter's coercer
// fails still lists the paths pruned before the failure.
func (r *router) convert(doc Document) objectResult {
	res := objectResult{Doc: doc}
	c, from, to, ferr := r.readTarget(doc.Object)
	if ferr != nil {
		res.Errors = field.ErrorList{ferr}
		return res
	}
	svFrom, svTo := r.version(c, from), r.version(c, to)
	for _, sv := range []*servedVersion{svFrom, svTo} {
		if sv.err != nil {
			res.Errors = field.ErrorList{field.InternalError(nil, sv.err)}
			return res
		}
	}
	u := runtime.DeepCopyJSON(doc.Object)
	if _, ok := u["metadata"]; !ok {
		// repairGeneration dereferences the ObjectMeta it did not find.
		res.Errors = field.ErrorList{field.InternalError(field.NewPath("metadata"), errors.New("the storage decoder panics on an object without metadata: runtime error: invalid memory address or nil pointer dereference"))}
		return res
	}
	preserve := c.V1.Spec.PreserveUnknownFields
	gk := schema.GroupKind{Group: c.V1.Spec.Group, Kind: c.V1.Spec.Names.Kind}
	paths, errs := coerce(u, svFrom.structural, gk, preserve, coerceOptions{pruneUnknown: true, pruneNulls: true, dropInvalidMetadata: true, repairGeneration: true})
	if len(errs) > 0 {
		res.Errors = sortedErrors(errs)
		return res
	}
	structuraldefaulting.Default(u, svFrom.structural)
	target := schema.GroupVersion{Group: gk.Group, Version: to}
	if c.V1.Spec.Conversion != nil && c.V1.Spec.Conversion.Strategy == apiextensionsv1.WebhookConverter && from != to {
		res.Errors = field.ErrorList{field.InternalError(field.NewPath("apiVersion"), fmt.Errorf("converting %s/%s to %s needs the conversion webhook of CustomResourceDefinition %q", gk.Group, from, target, c.Name))}
		return res
	}
	out, err := noneConverter(c.V1).ConvertToVersion(&unstructured.Unstructured{Object: u}, target)
	if err != nil {
		res.Errors = field.ErrorList{field.InternalError(field.NewPath("apiVersion"), err)}
		return res
	}
	u = out.(*unstructured.Unstructured).Object
	more, errs := coerce(u, svTo.structural, gk, preserve, coerceOptions{pruneUnknown: true, pruneNulls: true})
	if len(errs) > 0 {
		res.Errors = sortedErrors(errs)
		res.Pruned = sortedUnique(append(paths, more...))
		return res
	}
	res.Object = u
	res.Pruned = sortedUnique(append(paths, more...))
	return res
}

// noneConverter is the apiserver's converter of a CRD with strategy None
// (the nop converter behind its version checks).
func noneConverter(crd *apiextensionsv1.CustomResourceDefinition) runtime.ObjectConvertor {
	_, unsafe := noneConverters(crd)
	return unsafe
}

// noneConverters are conversion.NewCRConverterFactory's converters of a
// CRD with strategy None: the safe one (copying) the request scope
// converts with, the unsafe one the storage codec converts with.
func noneConverters(crd *apiextensionsv1.CustomResourceDefinition) (safe, unsafe runtime.ObjectConvertor) {
	f, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		panic(err)
	}
	none := crd.DeepCopy()
	none.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
	safe, unsafe, err = f.NewConverter(none)
	if err != nil {
		panic(err)
	}
	return safe, unsafe
}

// readTarget routes a stored object: the first accepted CRD of its group
// and kind, a version it defines (served or not), and the --to version,
// which it must serve.
func (r *router) readTarget(obj map[string]interface{}) (*checkedCRD, string, string, *field.Error) {
	_, gvk, ferr := r.route(obj)
	if ferr != nil && (ferr.Field != "apiVersion" || ferr.Type != field.ErrorTypeNotFound) {
		return nil, "", "", ferr
	}
	var c *checkedCRD
	for _, x := range r.crds {
		if x.Accepted() && x.Internal.Spec.Group == gvk.Group && x.Internal.Spec.Names.Kind == gvk.Kind {
			c = x
			break
		}
	}
	if c == nil {
		return nil, "", "", ferr
	}
	to := r.to
	group, v, toGroup := strings.Cut(to, "/")
	if toGroup {
		to = v
	}
	defined, served := false, false
	var servedNames []string
	for _, v := range c.V1.Spec.Versions {
		defined = defined || v.Name == gvk.Version
		served = served || (v.Name == to && v.Served)
		if v.Served {
			servedNames = append(servedNames, v.Name)
		}
	}
	sort.Strings(servedNames)
	if !defined {
		return nil, "", "", notFound("apiVersion", fmt.Sprintf("no matches for kind %q in version %q: CustomResourceDefinition %q does not define version %q", gvk.Kind, gvk.GroupVersion().String(), c.Name, gvk.Version))
	}
	if toGroup && group != gvk.Group {
		return nil, "", "", notFound("apiVersion", fmt.Sprintf("the object is of group %q, not of --to group %q", gvk.Group, group))
	}
	if !served {
		return nil, "", "", notFound("apiVersion", fmt.Sprintf("CustomResourceDefinition %q does not serve version %q (serves %s)", c.Name, to, strings.Join(servedNames, ", ")))
	}
	return c, gvk.Version, to, nil
}
