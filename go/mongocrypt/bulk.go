package mongocrypt

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// BulkSize is the number of encrypted values in the bulk document, as in the
// MongoDB Go driver's bulk decryption benchmark.
const BulkSize = 1500

// BulkKey and BulkValue name the i-th field of the bulk document and its
// plaintext.
func BulkKey(i int) string   { return fmt.Sprintf("key%04d", i) }
func BulkValue(i int) string { return fmt.Sprintf("value %04d", i) }

// BulkDocument encrypts BulkValue(i) for i < n with cr and returns the BSON
// document {BulkKey(0): <encrypted>, ...}.
func BulkDocument(cr *Crypt, n int) ([]byte, error) {
	d := make(bson.D, 0, n)
	for i := range n {
		v, err := cr.EncryptString(BulkValue(i))
		if err != nil {
			return nil, err
		}
		d = append(d, bson.E{Key: BulkKey(i), Value: v})
	}
	return bson.Marshal(d)
}

// CheckBulk verifies that doc is the decrypted bulk document of n values:
// exactly the fields BulkKey(i), in order, each the string BulkValue(i).
func CheckBulk(doc []byte, n int) error {
	elems, err := bson.Raw(doc).Elements()
	if err != nil {
		return fmt.Errorf("decrypted document: %w", err)
	}
	if len(elems) != n {
		return fmt.Errorf("decrypted document has %d fields, want %d", len(elems), n)
	}
	for i, e := range elems {
		if e.Key() != BulkKey(i) {
			return fmt.Errorf("field %d is %q, want %q", i, e.Key(), BulkKey(i))
		}
		s, ok := e.Value().StringValueOK()
		if !ok {
			return fmt.Errorf("field %s is a %v, want a string", e.Key(), e.Value().Type)
		}
		if s != BulkValue(i) {
			return fmt.Errorf("field %s decrypted to %q, want %q", e.Key(), s, BulkValue(i))
		}
	}
	return nil
}
