package simd

// TileRows and TileCols bound the tile that [GemmTile] computes in one call.
const (
	TileRows = 6
	TileCols = 16
)
