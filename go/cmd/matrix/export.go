package main

import (
	"encoding/json"
	"fmt"
)

// encodeMatrix is build/matrix.json: one row per toolchain, undefined
// values as null, ASCII only.
func encodeMatrix(m *matrix) ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding matrix.json: %v", err)
	}
	return append(b, '\n'), nil
}
