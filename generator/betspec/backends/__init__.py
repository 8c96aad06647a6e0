"""Back ends: the intermediate model turned into Python engines and Graphviz diagrams."""
