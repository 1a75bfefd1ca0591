package jsonvalue

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// apiserverTypes maps the Go types that decode CRDs here to the apiserver's
// own, whose names its decoding errors show ("Go struct field
// JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maxLength
// of type int64").
var apiserverTypes = map[string]string{
	"Props":               "JSONSchemaProps",
	"Names":               "CustomResourceDefinitionNames",
	"":                    "CustomResourceDefinitionSpec",
	"v1CRD":               "CustomResourceDefinition",
	"v1beta1CRD":          "CustomResourceDefinition",
	"v1Conversion":        "CustomResourceConversion",
	"v1beta1Conversion":   "CustomResourceConversion",
	"v1Webhook":           "WebhookConversion",
	"v1Version":           "CustomResourceDefinitionVersion",
	"v1beta1Version":      "CustomResourceDefinitionVersion",
	"v1Column":            "CustomResourceColumnDefinition",
	"v1beta1Column":       "CustomResourceColumnDefinition",
	"Validation":          "CustomResourceValidation",
	"crdValidation":       "CustomResourceValidation",
	"Subresources":        "CustomResourceSubresources",
	"Scale":               "CustomResourceSubresourceScale",
	"CRDStatus":           "CustomResourceDefinitionStatus",
	"ExternalDocs":        "ExternalDocumentation",
	"WebhookClientConfig": "WebhookClientConfig",
	"ServiceReference":    "ServiceReference",
	"SelectableField":     "SelectableField",
	"ValidationRule":      "ValidationRule",
}

// apiserverFieldTypes are fields whose Go type has a name of its own in
// the apiserver (a string type), by API version and field path.
var apiserverFieldTypes = map[string]string{
	"v1 spec.scope":                    "v1.ResourceScope",
	"v1beta1 spec.scope":               "v1beta1.ResourceScope",
	"v1 spec.conversion.strategy":      "v1.ConversionStrategyType",
	"v1beta1 spec.conversion.strategy": "v1beta1.ConversionStrategyType",
}

var typeErrorRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^json: cannot unmarshal (number (\S+)|\S+) into Go struct field (\w*)\.(\S+) of type (\S+)$`)
})

// DecodeError rewrites a decoding error of encoding/json as the
// apiserver's decoding of the same document words it: the apiserver first
// decodes a request into untyped JSON (a number that is not an int64
// becomes a float64 and is written again as encoding/json writes it: 1e20
// becomes 100000000000000000000) and then into its own types. version is
// the CRD's API version (v1 or v1beta1), "" for a bare schema.
func DecodeError(err error, version string) error {
	if err == nil {
		return nil
	}
	m := typeErrorRE().FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	what, number, typ, path, goType := m[1], m[2], m[3], m[4], m[5]
	if number != "" {
		what = "number " + apiserverNumber(number)
	}
	if t, ok := apiserverTypes[typ]; ok {
		typ = t
	}
	if version != "" {
		if t, ok := apiserverFieldTypes[strings.TrimPrefix(version, "apiextensions.k8s.io/")+" "+path]; ok {
			goType = t
		}
	}
	return errors.New("json: cannot unmarshal " + what + " into Go struct field " + typ + "." + path + " of type " + goType)
}

// apiserverNumber writes a JSON number as it reads after a round trip
// through apimachinery's untyped decoding: integers that fit int64 as they
// are, anything else as encoding/json writes the float64.
func apiserverNumber(n string) string {
	if _, err := strconv.ParseInt(n, 10, 64); err == nil {
		return n
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return n
	}
	b, err := json.Marshal(f)
	if err != nil {
		return n
	}
	return string(b)
}
