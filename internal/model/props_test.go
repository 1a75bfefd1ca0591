package model

import "github.com/crdschema/crdschema/schema"

// decodePropsExact is the exact decoder the fast one is compared with.
func decodePropsExact(data []byte, p *Props) error {
	fp, err := schema.Decode(data)
	if err != nil {
		return err
	}
	*p = *fp
	return nil
}
