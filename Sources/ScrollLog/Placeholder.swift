enum ScrollLogPlaceholder {}
