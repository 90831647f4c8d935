//! The filter work of an SVG asset: what each pixel of the layer it is
//! drawn in costs, counted from its filters' primitives (`feMorphology`
//! visits (2rx + 1)(2ry + 1) pixels for each pixel).

/// The filter work of an SVG asset, per pixel of the layer it is drawn in.
#[derive(Debug, Clone, Default)]
pub(super) struct FilterWork {
    /// Primitives that visit each pixel a bounded number of times.
    pub(super) primitives: u64,
    /// The radii of `feMorphology` primitives, in the asset's units.
    pub(super) morphology: Vec<(f32, f32)>,
}

impl FilterWork {
    /// The filter work of `tree` and of the SVG images inside it.
    pub(super) fn of(tree: &usvg::Tree) -> FilterWork {
        let mut work = FilterWork::default();
        work.add_tree(tree);
        work
    }

    fn add_tree(&mut self, tree: &usvg::Tree) {
        for filter in tree.filters() {
            for primitive in filter.primitives() {
                match primitive.kind() {
                    usvg::filter::Kind::Morphology(morphology) => self
                        .morphology
                        .push((morphology.radius_x().get(), morphology.radius_y().get())),
                    usvg::filter::Kind::ConvolveMatrix(convolve) => {
                        let matrix = convolve.matrix();
                        self.primitives = self
                            .primitives
                            .saturating_add(u64::from(matrix.columns()) * u64::from(matrix.rows()));
                    }
                    _ => self.primitives = self.primitives.saturating_add(1),
                }
            }
        }
        // Masks are drawn into a layer of the picture's size too.
        self.primitives = self.primitives.saturating_add(tree.masks().len() as u64);
        self.add_images(tree.root());
    }

    fn add_images(&mut self, group: &usvg::Group) {
        for node in group.children() {
            match node {
                usvg::Node::Group(inner) => self.add_images(inner),
                usvg::Node::Image(image) => {
                    if let usvg::ImageKind::SVG(tree) = image.kind() {
                        self.primitives = self.primitives.saturating_add(1);
                        self.add_tree(tree);
                    }
                }
                _ => {}
            }
        }
    }

    /// Passes over the layer's pixels when the asset is drawn `scale`
    /// output pixels per asset unit.
    pub(super) fn passes(&self, scale: f32) -> f64 {
        let morphology: f64 = self
            .morphology
            .iter()
            .map(|(rx, ry)| {
                let side = |r: f32| 2.0 * f64::from((r * scale).round().max(0.0)) + 1.0;
                side(*rx) * side(*ry)
            })
            .sum();
        1.0 + self.primitives as f64 + morphology
    }
}
