package studies

// The single-panel figures' size in pixels: 6×4 inches at 150 dpi.
const pxW, pxH = 900, 600
