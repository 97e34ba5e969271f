// The colour themes of Triangles' star field (a Preferences choice, prefs().starTheme). Nebula
// is the default, as the seed says: red-orange for Player 1 and blue for Player 2. Colour is
// never the only cue: in every theme Player 1's lines are solid and their triangles striped,
// Player 2's lines dashed and their triangles dotted (js/games/starfield.js).
// A theme's name and description are getters: read in the language of the moment.
//
// Each theme sets CSS custom properties on the element that holds the field:
//   --sky, --sky-2   the background (a radial gradient from --sky to --sky-2)
//   --star, --star-label, --star-glow
//   --p1, --p2       the players' colours (lines, fills, hatching, score swatches)
//   --fill-opacity   of a closed triangle's colour under its hatching: light enough that every
//                    line (either player's colour) keeps a contrast of 3:1 or more against a
//                    closed triangle's tint of either player, at both ends of the sky
//                    (WCAG 1.4.11; tests/web/test_web_triangles.py computes it)
//   --line-w         the width of a drawn line, in pixels
//   --pick           the ring around a picked or pointed star
import { t } from "./i18n.js";

export const STAR_THEMES = [
  {
    id: "nebula",
    get name() { return t("Nebula"); },
    get description() { return t("The default: red-orange and blue on a night sky."); },
    vars: { "--sky": "#2a1a55", "--sky-2": "#070918", "--star": "#f7f4ff", "--star-label": "#b8b2dd",
      "--star-glow": "rgba(190, 170, 255, 0.75)", "--p1": "#ff5a2c", "--p2": "#3b8cff",
      "--fill-opacity": "0.25", "--line-w": "3", "--pick": "#ffe27a" },
  },
  {
    id: "okabe-ito",
    get name() { return t("Okabe-Ito"); },
    get description() { return t("Orange and sky blue from the Okabe-Ito palette: told apart with any colour vision."); },
    vars: { "--sky": "#20242c", "--sky-2": "#101216", "--star": "#ffffff", "--star-label": "#c4c8d0",
      "--star-glow": "rgba(255, 255, 255, 0.45)", "--p1": "#e69f00", "--p2": "#56b4e9",
      "--fill-opacity": "0.3", "--line-w": "3", "--pick": "#f0e442" },
  },
  {
    id: "daylight",
    get name() { return t("Daylight"); },
    get description() { return t("Dark stars on paper, deep vermillion and blue: for bright rooms and sunlight."); },
    vars: { "--sky": "#fbf8f0", "--sky-2": "#ece5d3", "--star": "#1d1d1f", "--star-label": "#5d5a52",
      "--star-glow": "rgba(0, 0, 0, 0)", "--p1": "#a84300", "--p2": "#00629a",
      "--fill-opacity": "0.25", "--line-w": "3", "--pick": "#111111" },
  },
  {
    id: "contrast",
    get name() { return t("High contrast"); },
    get description() { return t("Yellow and cyan on black, thicker lines."); },
    vars: { "--sky": "#000000", "--sky-2": "#000000", "--star": "#ffffff", "--star-label": "#ffffff",
      "--star-glow": "rgba(0, 0, 0, 0)", "--p1": "#ffd500", "--p2": "#00e1ff",
      "--fill-opacity": "0.42", "--line-w": "4", "--pick": "#ffffff" },
  },
];

export const DEFAULT_STAR_THEME = "nebula";

export const starTheme = (id) => STAR_THEMES.find((t) => t.id === id) || STAR_THEMES[0];

/** Set theme `id`'s custom properties on `el` (and data-star-theme, for CSS and tests). */
export function applyStarTheme(el, id) {
  const theme = starTheme(id);
  for (const [k, v] of Object.entries(theme.vars)) el.style.setProperty(k, v);
  el.dataset.starTheme = theme.id;
  return theme;
}
