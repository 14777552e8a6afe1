// Generated from Docs/openapi.yaml by Clients/typescript/generate.py: do not edit.
// Regenerate with `python3 Clients/typescript/generate.py` after changing the contract.
/* eslint-disable */

/** A length in points, finite, 0 … 10⁹. */
export type Length = number;

/** An offset coordinate in points, finite, within ±10¹⁵. */
export type Coordinate = number;

/** 1 when the stack is created, +1 per successful mutation. */
export type Revision = number;


export type Index = number;


export type StackID = string;

/** Any non-empty string, unique in its stack. */
export type RowID = string;


export type Axis = "vertical" | "horizontal";

/** `#RRGGBB` or `#RRGGBBAA`, hex digits in any case. */
export type Color = string;

/** As stored and answered, `#RRGGBBAA` in upper case (`#RRGGBB` gets `FF` alpha). */
export type NormalizedColor = string;


export type Visibility = "partial" | "entire" | "hidden" | "offscreen";

/** Insets in points. As input, every side is optional: a partial object changes only the sides it names, of the insets it replaces — the current value in a PATCH (for a row without its own, the stack's `rowInsets`), otherwise the default that applies there (the stack's `rowInsets` for a row, the stack separator's insets for a row's separator, a setting's default: 0 for `contentInsets` and `padding`). Semantics.md, "Partial insets". Answers always give all four sides. */
export type Insets = {
  top?: Length;
  left?: Length;
  bottom?: Length;
  right?: Length;
};

/** Insets as answered, all four sides. */
export type FullInsets = (Insets) & ({ top: unknown; left: unknown; bottom: unknown; right: unknown; });

/** A viewport size as input; a missing member keeps the current value. */
export type Size = {
  width?: Length;
  height?: Length;
};

/** A size as answered (a viewport or a content size). */
export type FullSize = {
  width: number;
  height: number;
};

/** An offset as input; a missing member keeps the current value. */
export type Point = {
  x?: Coordinate;
  y?: Coordinate;
};

/** An offset as answered. */
export type FullPoint = {
  x: number;
  y: number;
};

/** A frame in content coordinates. */
export type Rect = {
  x: number;
  y: number;
  width: number;
  height: number;
};

/** What changed between the full layouts of two revisions, rows matched by id. */
export type LayoutDiff = {
  from: number;
  to: number;
  /** Ids only in `to`, in its order. */
  inserted: Array<string>;
  /** Ids only in `from`, in its order. */
  removed: Array<string>;
  /** Rows in both at another index, in `to`'s order. */
  moved: Array<{
    id: string;
    from: number;
    to: number;
  }>;
  /** Rows in both whose frame's size differs, in `to`'s order. */
  resized: Array<{
    id: string;
    before: Rect;
    after: Rect;
  }>;
};

/** The stack's separator, the default of every row. As input each member is optional (a missing one keeps the current value; partial `insets` keep the sides they do not name) and null is rejected. */
export type Separator = {
  hidden?: boolean;
  thickness?: Length;
  insets?: Insets;
  color?: Color;
};

/** The stack's separator as answered. */
export type FullSeparator = {
  hidden: boolean;
  thickness: Length;
  insets: FullInsets;
  color: NormalizedColor;
};

/** A row's own separator settings: each member set overrides the stack's; an absent one follows the stack. In a row PATCH the object merges with the row's overrides, and a member set to null clears that override. */
export type SeparatorOverride = {
  hidden?: boolean | null;
  thickness?: ((Length) | (null));
  insets?: ((Insets) | (null));
  color?: ((Color) | (null));
};

/** A row's separator overrides as answered; only the members set, never null, never empty. */
export type SeparatorOverrideOut = {
  hidden?: boolean;
  thickness?: Length;
  insets?: FullInsets;
  color?: NormalizedColor;
};

/** The content length along one axis, `"fit"` (measured from `content`) or fixed. */
export type LengthRule = (("fit") | (FixedLength));

/** A fixed content length along one axis. */
export type FixedLength = {
  fixed: Length;
};

/** A size rule with no `fit` on either axis (a row without `content` needs one). */
export type FixedSizeRule = ((FixedLength) | ({
  vertical: FixedLength;
  horizontal: FixedLength;
}));

/** One rule for both axes, or one per axis (the rule of the stack's current axis applies). Answers write a pair with equal rules as a single rule. */
export type SizeRule = ((LengthRule) | ({
  vertical: LengthRule;
  horizontal: LengthRule;
}));

/** What `fit` measures, like a CSS flexbox tree (see Semantics.md, "Measuring content"): a box, an aspect-ratio box (`aspectRatio` = width / height), text set in a real font (Semantics.md, "Text"), or a group of children along an axis. Each may clamp with `minWidth`, `maxWidth`, `minHeight`, `maxHeight`. Nesting is limited to 64 levels (deeper: 422 `invalid_value`). A group's `spacing` (default 0), `padding` (default 0) and `children` (default none) are always answered. */
export type ContentDescription = (({
  width?: Length;
  height?: Length;
  minWidth?: Length;
  maxWidth?: Length;
  minHeight?: Length;
  maxHeight?: Length;
}) | ({
  aspectRatio: number;
  minWidth?: Length;
  maxWidth?: Length;
  minHeight?: Length;
  maxHeight?: Length;
}) | ({
  text: string;
  font: Font;
  lineHeight?: Length;
  letterSpacing?: number;
  /** 0 (UIKit's numberOfLines = 0) or absent: every line; answers omit it then. */
  maxLines?: number;
  align?: "start" | "center" | "end";
  /** End the last shown line of a text maxLines cuts with "…", as Chromium's -webkit-line-clamp does. Never changes the node's size. */
  ellipsis?: boolean;
  minWidth?: Length;
  maxWidth?: Length;
  minHeight?: Length;
  maxHeight?: Length;
}) | ({
  stack: Axis;
  spacing?: Length;
  padding?: Insets;
  children?: Array<ContentDescription>;
  minWidth?: Length;
  maxWidth?: Length;
  minHeight?: Length;
  maxHeight?: Length;
}));


export type Font = {
  /** A family of GET /v1/fonts (case-insensitive) or an alias. */
  family: string;
  size: number;
  /** Answers always give the number. */
  weight?: ((number) | (string) | (string));
  style?: "normal" | "italic" | "oblique";
};

/** Where a content node sits (content coordinates), nested like its description. */
export type ContentFrame = {
  frame: Rect;
  /** A group's children, when it has any. */
  children?: Array<ContentFrame>;
  /** A text node's shown lines, when it has any, each with its characters. */
  lines?: Array<{
    x: number;
    y: number;
    /** With an ellipsis, counts it. */
    width: number;
    height: number;
    utf16: TextSpan;
    scalars: TextSpan;
  }>;
  /** Present when maxLines hid lines of this text. */
  truncated?: true;
  /** The box of the "…" ending the last shown line (text with ellipsis: true that maxLines cut). */
  ellipsis?: Rect;
  /** The characters of the text that no face of its font chain has a glyph for (its font, then the fallback faces: Semantics.md, "Text"), each once in order of appearance, at most 64; white space and invisible characters never. Absent when there are none. */
  missingGlyphs?: Array<string>;
};

/** Half-open offsets into the text as given: from the line's first character to the end of its last, spaces hanging at its end left out. */
export type TextSpan = {
  start: number;
  end: number;
};

/** A TrueType or OpenType font, or a collection of them (`.ttf`, `.otf`, `.ttc`, `.otc`), as its file's bytes. */
export type FontFile = string;

/** An uploaded font. */
export type UploadedFont = {
  /** The first 16 hex digits of the SHA-256 of its bytes. */
  id: string;
  bytes: number;
  faces: Array<{
    family: string;
    /** OS/2 usWeightClass (400 without an OS/2 table). */
    weight: number;
    style: "normal" | "italic";
    /** OS/2 usWidthClass: 5 is normal, lower is narrower. */
    width: number;
  }>;
};


export type Fonts = {
  families: Array<{
    family: string;
    faces: Array<{
      weight: number;
      style: "normal" | "italic";
      /** The uploaded font the face is from (`GET /v1/fonts/{font}`); absent for the server's own fonts. */
      id?: string;
    }>;
  }>;
  aliases: Array<{
    alias: string;
    family: string;
  }>;
};

/** Any JSON value the parser takes: object keys without `\u0000`, and numbers written as integers within 64 bits (reals may be any double); anything else is 400 `malformed_json` ("too big integer"). */
export type JSONValue = ((string | boolean | null) | (number) | (Array<JSONValue>) | ({ [key: string]: JSONValue }));

/** Opaque client properties, any JSON value but null; kept verbatim and never read. They may nest at most `--max-json-depth` arrays and objects deep (default 256, at most 1024; `[[1]]` is 2); deeper is 422 `nesting_too_deep`. The same limit applies to `content`. */
export type Props = ((string | boolean) | (number) | (Array<JSONValue>) | ({ [key: string]: JSONValue }));

/** A view controller descriptor. */
export type Controller = {
  type: string;
  instance?: string;
  props?: Props;
};

/** A plain view descriptor. */
export type View = {
  type: string;
  props?: Props;
};

/** A row as a client writes it (insert, create, replace). Exactly one of `controller` and `view`. `size` is required unless `content` is given (then it defaults to `"fit"`); a `fit` rule on either axis needs `content`. Without `id` the server generates one (`r-` and 12 hex digits). `index` is read-only: accepted and ignored, so a fetched row can be sent back. Partial `insets` take the sides they leave out from the stack's `rowInsets`; `separator` overrides only the members given (null members mean "not set"). */
export type RowInput = ({
  id?: RowID;
  controller?: Controller;
  view?: View;
  size?: SizeRule;
  content?: ContentDescription;
  insets?: Insets;
  separator?: SeparatorOverride;
  hidden?: boolean;
  tappable?: boolean;
  highlightable?: boolean;
  title?: RowTitle;
  transition?: RowTransition;
  style?: RowStyle;
  /** The stack this row embeds, by id (the server also takes such a row without `controller` or `view`: it is then the view `ScrollStack`). In a create body (`POST /v1/stacks`, `PUT /v1/stacks/{stack}`) it may also be that stack's whole create body, with its `id`, created with the stack (all or none; API.md, "Composed screens"); elsewhere an object is 422 `wrong_type`. */
  stack?: EmbeddedStackID;
  /** Read-only; accepted and ignored (any value). */
  index?: JSONValue;
}) & ((({ controller: unknown; }) | ({ view: unknown; }))) & ((({ content: unknown; }) | ({
  size: FixedSizeRule;
})));

/** The members to change; at least one. `insets`: null clears the row's own insets (it follows the stack's `rowInsets` again). `separator`: merged member by member with the row's overrides, a null member clears that override, null clears them all. `content`: null removes it (then the size must not be `fit`). `controller` or `view` (not both) replaces the descriptor. */
export type RowPatch = ({
  hidden?: boolean;
  insets?: ((Insets) | (null));
  separator?: ((SeparatorOverride) | (null));
  size?: SizeRule;
  content?: ((ContentDescription) | (null));
  controller?: Controller;
  view?: View;
  tappable?: boolean;
  highlightable?: boolean;
  /** The row's menu title; null removes it. */
  title?: ((RowTitle) | (null));
  /** The row's own hide/show looks; null removes them. */
  transition?: ((RowTransition) | (null));
  /** How pictures paint the row (replaced whole); null removes it. */
  style?: ((RowStyle) | (null));
  /** The stack the row embeds; null makes it embed none. */
  stack?: ((EmbeddedStackID) | (null));
  animation?: Animation;
  fps?: Fps;
}) & (unknown);

/** A row id (a JSON string) or its current index (a JSON integer; an integral real such as `2.0` counts). */
export type RowReference = ((string) | (number));

/** Where the block goes; `bottom` by default. `index` is 0 … count. */
export type InsertLocation = (("top" | "bottom") | ({
  index: number;
}) | ({
  before: RowReference;
}) | ({
  after: RowReference;
}));


export type InsertRows = {
  /** At least one row (an empty list is 422 `empty_batch`); ids unique in the list and in the stack (409). */
  rows: Array<RowInput>;
  at?: InsertLocation;
  animation?: Animation;
  fps?: Fps;
};


export type Move = {
  /** The index the row ends at, 0 … count − 1 (otherwise 422 `index_out_of_range`). */
  to: number;
  animation?: Animation;
  fps?: Fps;
};

/** One operation on many rows, resolved against the state before the call and applied whole or not at all. `insets` is required with `op` `insets` (null clears the rows' own insets) and rejected with any other `op`. */
export type Batch = {
  op: "remove" | "hide" | "show" | "insets" | "reload";
  /** At least one reference (empty is 422 `empty_batch`), no row named twice (422 `invalid_value`). */
  rows: Array<RowReference>;
  insets?: ((Insets) | (null));
  animation?: Animation;
  fps?: Fps;
};

/** Exactly one target. `offset`: kept as given (not clamped; a missing member keeps the current value). `row` with `position` (default `automatic`): clamped. `to`: the top or bottom of the clamp range. `page`: a paging stack's stop (0…pageCount−1; 422 naming `page` when the stack does not page or it is not a stop); `crossPage` (alone, or with `page`): a stop across of a stack that pages across (`crossLength`). `dryRun`: answer where the scroll would go without scrolling. See Semantics.md, "Operations" and "Paging". */
export type ScrollTarget = (({
  offset: Point;
  animation?: Animation;
  fps?: Fps;
  dryRun?: boolean;
}) | ({
  row: RowReference;
  position?: "initial" | "middle" | "final" | "automatic";
  animation?: Animation;
  fps?: Fps;
  dryRun?: boolean;
}) | ({
  to: "top" | "bottom";
  animation?: Animation;
  fps?: Fps;
  dryRun?: boolean;
}) | ({
  /** A stop of the stack's paging: 0…pageCount−1. */
  page: number;
  /** A stop across, for a stack that pages across (`crossLength`): 0…crossPaging.pageCount−1. */
  crossPage?: number;
  animation?: Animation;
  fps?: Fps;
  dryRun?: boolean;
}) | ({
  /** A stop across, for a stack that pages across (`crossLength`), keeping the offset along. */
  crossPage: number;
  animation?: Animation;
  fps?: Fps;
  dryRun?: boolean;
}));

/** Where `POST …/scroll` with `dryRun` would go; nothing changed. */
export type ScrollDryRun = {
  /** The stack's current revision. */
  revision: (Revision);
  dryRun: true;
  offset: FullPoint;
  /** When `animation` or `fps` asks; its `revision` is the one the scroll would make. */
  transition?: TransitionPlan;
  /** The visible layout at that offset, as `GET …/layout?window=visible` answers it (without `revision`). */
  window: (Layout) & (unknown);
};

/** The stack's settings. On create every member is optional (defaults in Semantics.md); in a PATCH the given members change. Nested objects merge member by member with the current values, or with the defaults on create (`{"viewport": {"height": 500}}` keeps the width), except the separator's `insets`, which are replaced whole. Null is rejected. */
export type StackSettings = {
  axis?: Axis;
  viewport?: Size;
  contentInsets?: Insets;
  offset?: Point;
  spacing?: Length;
  rowInsets?: Insets;
  separator?: Separator;
  autoHideLastRowSeparator?: boolean;
  /** The content's length across the scroll axis, which every row spans (a grid's width); longer than the viewport, the stack scrolls and pages along both axes. Absent or null (a PATCH removes it) the rows span the viewport. */
  crossLength?: ((Length) | (null));
  paging?: PagingInput;
  pageIndicator?: PageIndicatorInput;
  menu?: MenuInput;
};

/** The create body (also the stateless layout's): the settings, an optional `id` (generated as `s-` and 12 hex digits when absent) and the rows. `revision` and `contentSize` are read-only: accepted and ignored, so a fetched stack can be posted back as it is. */
export type StackInput = {
  id?: StackID;
  axis?: Axis;
  viewport?: Size;
  contentInsets?: Insets;
  offset?: Point;
  spacing?: Length;
  rowInsets?: Insets;
  separator?: Separator;
  autoHideLastRowSeparator?: boolean;
  /** The content's length across the scroll axis, which every row spans (a grid's width); longer than the viewport, the stack scrolls and pages along both axes. Absent or null (a PATCH removes it) the rows span the viewport. */
  crossLength?: ((Length) | (null));
  paging?: PagingInput;
  pageIndicator?: PageIndicatorInput;
  menu?: MenuInput;
  /** The rows in order; ids unique (409 `duplicate_id`). */
  rows?: Array<RowInput>;
  /** Read-only; accepted and ignored (any value). */
  revision?: JSONValue;
  /** Read-only; accepted and ignored (any value). */
  contentSize?: JSONValue;
};

/** The stateless layout's body: the create body, except that `id` is accepted and ignored too (any value), since nothing is stored. Rows without an id get one. */
export type LayoutInput = {
  /** Accepted and ignored (any value). */
  id?: JSONValue;
  /** Lay out once per distinct device (1–16 entries, repeats included; one named twice with the same size is laid out once), each a built-in name or `{"name", "width", "height", "safeArea"?}`; not with `?devices=`. The work budgets of `?devices=` apply. */
  devices?: Array<((DeviceName) | (DeviceInput))>;
  axis?: Axis;
  viewport?: Size;
  contentInsets?: Insets;
  offset?: Point;
  spacing?: Length;
  rowInsets?: Insets;
  separator?: Separator;
  autoHideLastRowSeparator?: boolean;
  /** The content's length across the scroll axis, which every row spans (a grid's width); longer than the viewport, the stack scrolls and pages along both axes. Absent or null (a PATCH removes it) the rows span the viewport. */
  crossLength?: ((Length) | (null));
  paging?: PagingInput;
  pageIndicator?: PageIndicatorInput;
  menu?: MenuInput;
  /** The rows in order; ids unique (409 `duplicate_id`). */
  rows?: Array<RowInput>;
  /** Read-only; accepted and ignored (any value). */
  revision?: JSONValue;
  /** Read-only; accepted and ignored (any value). */
  contentSize?: JSONValue;
};


export type StackSummary = {
  id: StackID;
  revision: Revision;
  rowCount: number;
};

/** A row as answered: as the client wrote it, with `insets` and `separator` only where the row overrides the stack, `content` only when it has one, and the three flags always. Composed with its index wherever the API answers a row. */
export type Row = ({
  id: RowID;
  controller?: Controller;
  view?: View;
  size: SizeRule;
  content?: ContentDescription;
  insets?: FullInsets;
  separator?: SeparatorOverrideOut;
  hidden: boolean;
  tappable: boolean;
  highlightable: boolean;
  title?: RowTitle;
  transition?: RowTransition;
  style?: RowStyleOut;
  stack?: StackID;
}) & ((({ controller: unknown; }) | ({ view: unknown; })));

/** How pictures (SVG, PNG) paint the row; layout never reads it. Each member optional. */
export type RowStyle = {
  background?: Color;
  cornerRadius?: number;
  border?: {
    width: number;
    color: Color;
  };
  textColor?: Color;
  /** A placeholder, the largest box of this width/height ratio centred in the row's content frame. */
  image?: {
    aspectRatio: number;
    fill: Color;
  };
};

/** A row's style as answered, colours `#RRGGBBAA` in capitals. */
export type RowStyleOut = {
  background?: NormalizedColor;
  cornerRadius?: number;
  border?: {
    width: number;
    color: NormalizedColor;
  };
  textColor?: NormalizedColor;
  image?: {
    aspectRatio: number;
    fill: NormalizedColor;
  };
};

/** A row and its index (its current one; in `removed`, its former one). */
export type RowWithIndex = (Row) & ({
  index: Index;
});

/** `hidden` and `offscreen` have `visibleFraction` 0, `entire` has 1, `partial` is strictly between (shared area / row area). */
export type VisibilityState = ({
  visibility: Visibility;
  visibleFraction: number;
}) & ((({
  visibility?: "hidden" | "offscreen";
  visibleFraction?: 0;
}) | ({
  visibility?: "entire";
  visibleFraction?: 1;
}) | ({
  visibility?: "partial";
  visibleFraction?: unknown;
})));

/** A row's frames and visibility. */
export type RowGeometry = ({
  frame: Rect;
  contentFrame: Rect;
  /** Null when the row draws no separator. */
  separatorFrame: ((Rect) | (null));
}) & (VisibilityState);

/** One row of a layout. */
export type RowLayout = ({
  id: RowID;
  index: Index;
  content?: ContentFrame;
  stack?: EmbeddedLayout;
}) & (RowGeometry);

/** The id of a stack this row embeds (Semantics.md, "Composed screens"): it must exist (422 naming this member) and must not embed the row's own stack, directly or through others (422 `embedding_cycle`, the message giving the path). Its viewport is the row's content frame. A `fit` row that embeds a stack is as long as that stack's content laid out in the row (no `content` needed), and follows it when it changes. */
export type EmbeddedStackID = (StackID);

/** In a row that embeds a stack: that stack's layout, laid out in the row's content frame (`frame`, in the root's coordinates) at its own offset. Its rows' frames are in the root's coordinates; their visibility is judged through every enclosing viewport. Past `?depth=` only `id` is given; `unavailable` when the stack cannot be read. The carousel members keep the embedded stack's own coordinates. */
export type EmbeddedLayout = {
  id: StackID;
  unavailable?: true;
  revision?: Revision;
  axis?: Axis;
  viewport?: FullSize;
  offset?: FullPoint;
  contentSize?: FullSize;
  frame?: Rect;
  rows?: Array<RowLayout>;
  visibleRows?: Array<RowID>;
  entirelyVisibleRows?: Array<RowID>;
  paging?: PagingState;
  /** The paging state across the scroll axis, for a paging stack that scrolls across (`crossLength`) only. */
  crossPaging?: PagingState;
  pageIndicator?: PageIndicatorLayout;
  menu?: MenuLayout;
};

/** A row (as answered), its index, frames and visibility. */
export type RowWithLayout = (Row) & ({
  index: Index;
}) & (RowGeometry);


export type HitResult = {
  revision: Revision;
  row: ((null) | (({
    id: RowID;
    index: Index;
    tappable: boolean;
    highlightable: boolean;
  }) & (RowGeometry) & ({
    visibility?: "partial" | "entire";
  })));
  /** When the row hit embeds a stack: the point followed down the tree, one entry per level from this stack to the deepest row under the point (an embedded stack is hit where the point falls in its viewport, the row's content frame). The ETag then also hashes the embedded stacks' revisions. */
  path?: Array<{
    stack: StackID;
    row: RowID;
    index: Index;
    tappable: boolean;
    highlightable: boolean;
  }>;
};

/** The whole model. */
export type Stack = {
  id: StackID;
  revision: Revision;
  axis: Axis;
  viewport: FullSize;
  contentInsets: FullInsets;
  offset: FullPoint;
  spacing: Length;
  rowInsets: FullInsets;
  separator: FullSeparator;
  autoHideLastRowSeparator: boolean;
  /** The content's length across the scroll axis, which every row spans; present only when set (absent: the viewport's). */
  crossLength?: Length;
  paging?: Paging;
  pageIndicator?: PageIndicator;
  menu?: Menu;
  contentSize: FullSize;
  rows: Array<RowWithIndex>;
};

/** The computed layout: every row (or, with `window=visible`, the partial and entire ones), then the ids of the visible rows and of the entirely visible rows, in order. `revision` is absent from the stateless layout. */
export type Layout = {
  revision?: Revision;
  axis: Axis;
  viewport: FullSize;
  offset: FullPoint;
  contentSize: FullSize;
  rows: Array<RowLayout>;
  visibleRows: Array<RowID>;
  entirelyVisibleRows: Array<RowID>;
  paging?: PagingState;
  /** The paging state across the scroll axis, for a paging stack that scrolls across (`crossLength`) only. */
  crossPaging?: PagingState;
  pageIndicator?: PageIndicatorLayout;
  menu?: MenuLayout;
  /** With `from`/`limit`, the page answered; `visibleRows` and `entirelyVisibleRows` then cover the whole viewport. */
  page?: Page;
  next?: NextLink;
  /** In `DeviceLayouts` only, where it is required. */
  device?: Device;
};

/** One layout per device asked for, in order (`?devices=` or the body's `devices`). */
export type DeviceLayouts = {
  revision?: Revision;
  layouts: Array<(Layout) & (unknown) & ({
    device: Device;
  })>;
};

/** A built-in device, upright (its name) or turned (`-landscape`): `GET /v1/devices` lists each with its size and safe area. */
export type DeviceName = "iphone-se" | "iphone-se-landscape" | "iphone-mini" | "iphone-mini-landscape" | "iphone-15" | "iphone-15-landscape" | "iphone-15-plus" | "iphone-15-plus-landscape" | "iphone-15-pro" | "iphone-15-pro-landscape" | "iphone-15-pro-max" | "iphone-15-pro-max-landscape" | "iphone-16" | "iphone-16-landscape" | "iphone-16-plus" | "iphone-16-plus-landscape" | "iphone-16-pro" | "iphone-16-pro-landscape" | "iphone-16-pro-max" | "iphone-16-pro-max-landscape" | "ipad-mini" | "ipad-mini-landscape" | "ipad" | "ipad-landscape" | "ipad-air-13" | "ipad-air-13-landscape" | "ipad-pro-11" | "ipad-pro-11-landscape" | "ipad-pro-13" | "ipad-pro-13-landscape" | "pixel-8" | "pixel-8-landscape" | "pixel-8-pro" | "pixel-8-pro-landscape" | "pixel-9" | "pixel-9-landscape" | "galaxy-s24" | "galaxy-s24-landscape" | "galaxy-s24-ultra" | "galaxy-s24-ultra-landscape" | "galaxy-a55" | "galaxy-a55-landscape" | "pixel-tablet" | "pixel-tablet-landscape" | "galaxy-tab-s9" | "galaxy-tab-s9-landscape";

/** A device of one's own (platform `custom`; landscape when wider than tall). */
export type DeviceInput = {
  name: string;
  width: Length;
  height: Length;
  /** What system UI covers (default none); partial, the other sides 0. */
  safeArea?: Insets;
};

/** A device as answered. The safe area never changes the layout (the viewport is the whole screen); give `contentInsets` for a stack that must avoid it. */
export type Device = {
  name: string;
  width: Length;
  height: Length;
  platform: "ios" | "android" | "custom";
  orientation: "portrait" | "landscape";
  /** The insets of the area free of the status bar, notch or Dynamic Island, home indicator and navigation bar (iOS as UIKit reports them; Android typical values, a 24 dp status bar and a 24 dp gesture bar). */
  safeArea: FullInsets;
};


export type Page = {
  from: number;
  limit: number;
  /** The rows in the whole list. */
  total: number;
};

/** The next page's path and query (this request's, `from` moved on), or null after the last page. */
export type NextLink = string | null;

/** An SVG 1.1 document; rows are `<g class="row VISIBILITY" data-id data-index data-visibility>`, the viewport `<rect id="viewport">`, text glyph outlines placed with `<use>`; a row that embeds a stack holds it as `<g class="embedded" data-stack>`, clipped to the row's content frame. ETag `"N.svg"` (`"N.<16 hex>.svg"` when embedded stacks are drawn). */
export type SVG = string;

/** A PNG image (8-bit RGB), the same picture as the SVG at `scale` pixels per point. ETag `"N.png@S"` (`"N.<16 hex>.png@S"` when embedded stacks are drawn). */
export type PNG = string;

/** `false` or null turns the setting off; `true` turns it on with the defaults (or keeps it as it is). */
export type Toggle = boolean | null;


export type PageSize = (("rows") | ({
  absolute: number;
}) | ({
  fraction: number;
}));


export type Edge = "top" | "left" | "bottom" | "right";

/** Paging (Semantics.md, "Paging"); an object merges member by member. */
export type PagingInput = ((Toggle) | ({
  size?: PageSize;
  alignment?: "leading" | "center" | "trailing";
  sizeInsets?: Insets;
  positionInsets?: Insets;
  contentInsetEdges?: Array<Edge>;
}));


export type Paging = {
  size: PageSize;
  alignment: "leading" | "center" | "trailing";
  sizeInsets: FullInsets;
  positionInsets: FullInsets;
  contentInsetEdges: Array<Edge>;
};

/** The page control (needs `paging`); an object merges member by member. */
export type PageIndicatorInput = ((Toggle) | ({
  hidesForSinglePage?: boolean;
  dotDiameter?: Length;
  dotSpacing?: Length;
  height?: Length;
  position?: "bottom" | "top";
  inset?: Length;
  pageIndicatorTintColor?: Color;
  currentPageIndicatorTintColor?: Color;
}));


export type PageIndicator = {
  hidesForSinglePage: boolean;
  dotDiameter: Length;
  dotSpacing: Length;
  height: Length;
  position: "bottom" | "top";
  inset: Length;
  pageIndicatorTintColor: NormalizedColor;
  currentPageIndicatorTintColor: NormalizedColor;
};

/** Exactly one mode; a missing width is 150, a missing height 40. */
export type MenuItemSize = (({
  fixed: {
    width?: Length;
    height?: Length;
  };
}) | ({
  sizeToFit: {
    minWidth?: Length;
    height?: Length;
  };
}) | ({
  selfSizing: {
    estimatedWidth?: Length;
    height?: Length;
  };
}));


export type MenuIndicatorInput = (("hidden") | ({
  height?: Length;
  spacing?: Insets;
  insets?: Insets;
  position?: "top" | "bottom";
}));


export type MenuBorderInput = (("hidden") | ({
  height?: Length;
  insets?: Insets;
}));

/** The paging menu (needs `paging`; either axis: over vertical pages it is the same horizontal strip, its selection following the paging along y, Parchment's `contentNavigationOrientation` `.vertical`); an object merges member by member. While `itemSize` is `sizeToFit` or `selfSizing`, a title without `width` is measured by the text engine in `font` (selected item: `selectedFont`) plus `itemLabelSpacing` on each side. An unknown font family is 422 at `menu.font.family` / `menu.selectedFont.family`, listing the available families. */
export type MenuInput = ((Toggle) | ({
  itemSize?: MenuItemSize;
  itemSpacing?: Length;
  itemLabelSpacing?: Length;
  insets?: Insets;
  horizontalAlignment?: "left" | "center" | "right";
  selectedScrollPosition?: "left" | "right" | "center" | "preferCentered";
  /** Parchment's `PagingOptions.menuTransition`; default `scrollAlongside`: the menu's offset, indicator and item colours follow the content between pages. With `animateAfter` the menu of a layout part-way between pages is the current page's at-rest menu (laid out as if the progress were the current page), and moves on once the content rests on another page. */
  menuTransition?: "scrollAlongside" | "animateAfter";
  indicator?: MenuIndicatorInput;
  border?: MenuBorderInput;
  position?: "top" | "bottom";
  /** Title font of items not selected; default Inter 15, weight 500 (Parchment's medium system font). */
  font?: (Font);
  /** Title font of the selected item; default as `font`. */
  selectedFont?: (Font);
  /** Title colour of items not selected (Parchment's `textColor`); default `#000000FF`. */
  textColor?: (Color);
  /** Title colour of the selected item; default `#037DE9FF`. Part-way between two pages an item's title colour is interpolated between the two by the item's progress. */
  selectedTextColor?: (Color);
  /** Background of items not selected; default clear, `#00000000`. */
  backgroundColor?: (Color);
  /** Background of the selected item, interpolated with `backgroundColor` as the title colours are; default `#00000000`. */
  selectedBackgroundColor?: (Color);
  /** The indicator's colour; default `#037DE9FF`. */
  indicatorColor?: (Color);
  /** The border's colour; default `#E6E6E6FF` (white 0.9). */
  borderColor?: (Color);
  /** The background behind the items; default `#FFFFFFFF`. */
  menuBackgroundColor?: (Color);
}));


export type Menu = {
  itemSize: MenuItemSize;
  itemSpacing: Length;
  itemLabelSpacing: Length;
  insets: FullInsets;
  horizontalAlignment: "left" | "center" | "right";
  selectedScrollPosition: "left" | "right" | "center" | "preferCentered";
  menuTransition: "scrollAlongside" | "animateAfter";
  indicator: MenuIndicatorInput;
  border: MenuBorderInput;
  position: "top" | "bottom";
  font: Font;
  selectedFont: Font;
  textColor: NormalizedColor;
  selectedTextColor: NormalizedColor;
  backgroundColor: NormalizedColor;
  selectedBackgroundColor: NormalizedColor;
  indicatorColor: NormalizedColor;
  borderColor: NormalizedColor;
  menuBackgroundColor: NormalizedColor;
};

/** The row's menu entry; `width` and `selectedWidth` override the measured widths. The text holds at most 1,000 characters. */
export type RowTitle = ((string) | ({
  text?: string;
  width?: Length;
  selectedWidth?: Length;
}));


export type PagingState = {
  pageSize: number;
  pageCount: number;
  currentPage: number;
  progress: number;
};


export type PageIndicatorLayout = {
  frame: Rect;
  numberOfPages: number;
  currentPage: number;
  hidden: boolean;
  /** Present only with more than 1,000 pages; the page of the first dot listed (the 1,000 around the current page are). */
  firstDot?: number;
  /** One per page, in order (at most 1,000, from page `firstDot`); the current page's in `currentPageIndicatorTintColor`, the others' in `pageIndicatorTintColor`. */
  dots: Array<{
    frame: Rect;
    color: NormalizedColor;
  }>;
};


export type MenuItemLayout = {
  id: RowID;
  index: Index;
  rowIndex: Index;
  title?: string;
  frame: Rect;
  selected: boolean;
  /** How selected the item is (Parchment's `PagingCellLayoutAttributes.progress`): 1 − f for the current item, f for the upcoming one, 0 for the others, clamped to 0…1. */
  progress: number;
  /** The title's colour at `progress`, from the menu's `textColor` (0) to `selectedTextColor` (1), each channel linear and rounded to the nearest. */
  textColor: (NormalizedColor);
  /** The item's background at `progress`, from `backgroundColor` to `selectedBackgroundColor`. */
  backgroundColor: (NormalizedColor);
};

/** The paging menu at the layout's offset: a horizontal strip on either axis (items, indicator, border and `contentOffset` along x, `frame` the viewport's width above or below it), at the paging progress along the stack's axis. */
export type MenuLayout = {
  frame: Rect;
  contentSize: FullSize;
  contentOffset: FullPoint;
  /** The paging progress along the stack's axis (x or y; item k is page k) that the menu is laid out at: the paging's with `menuTransition` `scrollAlongside`, the current page's (a whole number) with `animateAfter`. */
  progress: number;
  /** Present only with more than 1,000 items; the index of the first item listed (the 1,000 around the selected item are; `menu/window` pages through the rest). */
  firstItem?: number;
  /** In order, at most 1,000 (from item `firstItem`), each with its own `index`. */
  items: Array<MenuItemLayout>;
  selected: ((null) | ({
    index: Index;
    id: RowID;
    rowIndex: Index;
  }));
  indicator: ((Rect) | (null));
  border: ((Rect) | (null));
  indicatorColor: NormalizedColor;
  borderColor: NormalizedColor;
  menuBackgroundColor: NormalizedColor;
};


export type SettleSample = {
  t: number;
  offset: number;
};


export type MenuWindowItem = {
  id: RowID;
  index: Index;
  rowIndex: Index;
  width: number;
};


export type MenuWindowMissing = {
  width: number;
  items: number;
};

/** What ScrollStackController's delegate would have reported. Order within a mutation: row events, `layoutUpdated`, `contentSizeChanged`, `didScroll`, visibility events in row order (see Semantics.md, "Events"). */
export type Event = ((RowAddedEvent) | (RowRemovedEvent) | (RowMovedEvent) | (RowHiddenEvent) | (RowShownEvent) | (RowResizedEvent) | (BecameVisibleEvent) | (BecameHiddenEvent) | (ContentSizeChangedEvent) | (LayoutUpdatedEvent) | (DidScrollEvent));

/** A row entered the stack; `index` is its final index. */
export type RowAddedEvent = {
  type: "rowAdded";
  id: RowID;
  index: Index;
};

/** A row left the stack; `index` is its former index. */
export type RowRemovedEvent = {
  type: "rowRemoved";
  id: RowID;
  index: Index;
};


export type RowMovedEvent = {
  type: "rowMoved";
  id: RowID;
  from: Index;
  to: Index;
};

/** The row became hidden (only when its state changed). */
export type RowHiddenEvent = {
  type: "rowHidden";
  id: RowID;
  index: Index;
};

/** The row was shown again (only when its state changed). */
export type RowShownEvent = {
  type: "rowShown";
  id: RowID;
  index: Index;
};

/** A change aimed at the row (reload, size, content, insets) changed its length; `from` and `to` are lengths. */
export type RowResizedEvent = {
  type: "rowResized";
  id: RowID;
  index: Index;
  from: number;
  to: number;
};

/** The row became partial or entire from anything else, or went from partial to entire. */
export type BecameVisibleEvent = ({
  type: "becameVisible";
  id: RowID;
  index: Index;
  visibility: "partial" | "entire";
  visibleFraction: number;
}) & (VisibilityState);

/** The row went from entire to partial, or from partial or entire to offscreen or hidden; it carries the new state. */
export type BecameHiddenEvent = ({
  type: "becameHidden";
  id: RowID;
  index: Index;
  visibility: "partial" | "offscreen" | "hidden";
  visibleFraction: number;
}) & (VisibilityState);


export type ContentSizeChangedEvent = {
  type: "contentSizeChanged";
  from: FullSize;
  to: FullSize;
};

/** Once per successful mutation. */
export type LayoutUpdatedEvent = {
  type: "layoutUpdated";
};


export type DidScrollEvent = {
  type: "didScroll";
  from: FullPoint;
  to: FullPoint;
};

/** The answer to a stack write asked `Prefer: return=minimal`: which stack, at which revision. */
export type MinimalResult = {
  id: StackID;
  revision: number;
};

/** The answer to every mutation. */
export type MutationResult = {
  /** The revision this mutation made. */
  revision: number;
  /** The rows the operation touched that are still in the stack, with their indexes now. */
  changed: Array<RowWithIndex>;
  /** Present only when rows were removed; each with its former index, in the order given. */
  removed?: Array<RowWithIndex>;
  events: Array<Event>;
  /** Present when the body has `animation` or `fps` (or the query `fps`). */
  transition?: TransitionPlan;
  /** A planned change of a stack that hosts' fit rows embed; the plans of the hosts it re-measured (same timing), hosts' hosts included. */
  hostTransitions?: Array<{
    stack: string;
    revision: number;
    transition: TransitionPlan;
  }>;
  /** `POST …/scroll` only: the visible layout after the scroll, as `GET …/layout?window=visible` answers it (without `revision`), carousel members included. */
  window?: (Layout) & (unknown);
};


export type NestedPlanRows = Array<{
  id: string;
  frame: Rect;
}>;

/** The journaled events after a revision, each with the revision its mutation made and when it was made. */
export type EventHistory = {
  /** The stack's current revision. */
  revision: (Revision);
  /** When the answer stops before the current revision (at `limit` or at `--events-answer-bytes`, 4 MiB of events, but after at least one revision), this request's path and query with `after` set to the last revision answered; absent otherwise. */
  next?: string;
  events: Array<(Event) & ({
    revision: number;
    /** When the revision was made, in UTC with milliseconds, as recorded with it (the same after a restart; the live stream carries it too). Absent for revisions journaled before times were recorded. */
    time?: string;
  })>;
};

/** `true`: the defaults (rows 0.25 s, damping 0.8, but damping 1 when hiding or showing rows none of which has its own `transition`; piles their own, Pile's 0.6 s, damping 0.6); `false`: not animated; an object overrides members of the defaults. Also accepted in PUT row and PATCH stack bodies, and as the optional JSON body of the DELETEs. */
export type Animation = ((boolean) | ({
  duration?: number;
  delay?: number;
  /** Large enough that the spring settles in finite time (2e-309 does not: 422) */
  damping?: number;
  initialVelocity?: number;
  /** Rows animate with the spring only; timing curves are for piles (422 `animation.curve`). */
  curve?: "spring";
}));

/** A pile's animation: `true` (the pile's default), `false` (not animated), or an object over the pile's default. `curve` is `spring` (the default: `damping`, `initialVelocity` as for rows) or a `UIView.AnimationCurve` timing, the cubic Bézier of its `CAMediaTimingFunction` over `duration` after `delay`; a timing curve (given or the default's) takes no `damping` or `initialVelocity` (422 naming the member). */
export type PileAnimation = ((boolean) | ({
  curve?: "spring" | "linear" | "easeIn" | "easeOut" | "easeInOut";
  duration?: number;
  delay?: number;
  /** Springs only. Large enough that the spring settles in finite time (2e-309 does not: 422) */
  damping?: number;
  /** Springs only. */
  initialVelocity?: number;
}));

/** Frames per second to sample the plan at (adds `keyframes`); at most 10,000 keyframes per plan. */
export type Fps = number;


export type RowLook = {
  alpha?: number;
  translate?: Point;
  scale?: number;
};

/** `hide`: the look of the hidden state; `show`: the look of the shown state. */
export type RowTransition = {
  hide?: RowLook;
  show?: RowLook;
};


export type Timing = {
  duration: number;
  delay: number;
  damping: number;
  initialVelocity: number;
  curve: "spring";
  /** (2π / duration)², unit mass */
  stiffness: number;
  /** 2 · damping · 2π / duration */
  dampingCoefficient: number;
  /** Seconds until the displacement stays within 0.001 of the distance. */
  settleTime: number;
  /** delay + settleTime */
  restTime: number;
};

/** A pile plan's timing when its animation is a timing curve. */
export type CurveTiming = {
  duration: number;
  delay: number;
  curve: "linear" | "easeIn" | "easeOut" | "easeInOut";
  /** The Bézier's (x1, y1, x2, y2): linear (0, 0, 1, 1), easeIn (0.42, 0, 1, 1), easeOut (0, 0, 0.58, 1), easeInOut (0.42, 0, 0.58, 1). */
  controlPoints: Array<number>;
  /** delay + duration */
  restTime: number;
};


export type FromTo = {
  from: unknown;
  to: unknown;
};


export type RowState = {
  /** Absent at the end of an exit. */
  index?: number;
  frame: Rect;
  contentFrame: Rect;
  separatorFrame: ((Rect) | (null));
  alpha: number;
  hidden: boolean;
  translate: FullPoint;
  scale: number;
};

/** Each frame's time, spring progress, offset (stacks) and every planned row's or view's frame, alpha and look. */
export type Keyframes = Array<{
  time: number;
  progress: number;
  /** A pile's views at that time; with `transform` in piles with 3D transforms, interpolated as CSS Transforms Level 2 interpolates matrices (Semantics.md, "Piles"). */
  views?: Array<{
    id: string;
    transform?: PileMatrix;
  }>;
}>;

/** See Semantics.md, "Transition plans". */
export type TransitionPlan = {
  revision: number;
  animated: boolean;
  timing: Timing;
  axis: FromTo;
  viewport: FromTo;
  contentSize: FromTo;
  offset: FromTo;
  rows: Array<{
    id: RowID;
    change: "insert" | "remove" | "hide" | "show" | "move" | "replace" | "update" | "slide" | "layout";
    enter: boolean;
    exit: boolean;
    from: RowState;
    to: RowState;
    /** A row that embeds a stack, in a plan answered by a write or a dry run only; that stack's visible rows laid out in the row at the plan's start and end, in the row's content coordinates. */
    stack?: {
      id: string;
      from: NestedPlanRows;
      to: NestedPlanRows;
    };
  }>;
  fps?: Fps;
  keyframes?: Keyframes;
};

/** Every number finite and within ±10⁹; insets must leave a width and a height of at least 0 in the bounds (422 otherwise). */
export type PileMetric = {
  alpha?: number;
  insets?: PileInsets;
  offset?: PilePoint;
  relativeOffset?: PilePoint;
  scale?: number;
  translate?: PilePoint;
  /** A 3D transform about the view's centre, after `scale` and `translate`; its operations are applied in order (the first to the view first, as CATransform3DConcat chains them). See Semantics.md, "Piles", "3D transforms". */
  transform?: Array<PileTransformOperation>;
};

/** Exactly one operation per object (422 `invalid_value` otherwise); every number finite and within ±10⁹. */
export type PileTransformOperation = (({
  /** The eye distance d: m34 = −1/d. */
  perspective: number;
}) | ({
  /** CATransform3DMakeRotation in degrees about the axis (x, y, z), which is z when none of x, y, z is given (else a missing member is 0) and must not be (0, 0, 0). */
  rotate: {
    angle: number;
    x?: PileCoordinate;
    y?: PileCoordinate;
    z?: PileCoordinate;
  };
}) | ({
  translate: PileVector;
}) | ({
  scale: PileVector;
}));

/** Members default to 0 for translate, 1 for scale. */
export type PileVector = {
  x?: PileCoordinate;
  y?: PileCoordinate;
  z?: PileCoordinate;
};

/** The composed CATransform3D, 16 numbers in member order m11 m12 m13 m14 m21 … m44 (also CSS matrix3d()'s argument order), each rounded to 10⁻⁶. Present in every view state of a pile any of whose metrics has a transform; absent otherwise. */
export type PileMatrix = Array<number>;


export type PileViewState = {
  frame: Rect;
  alpha: number;
  translate: FullPoint;
  scale: number;
  transform?: PileMatrix;
};


export type PileCoordinate = number;


export type PilePoint = {
  x?: PileCoordinate;
  y?: PileCoordinate;
};


export type PileInsets = {
  top?: PileCoordinate;
  left?: PileCoordinate;
  bottom?: PileCoordinate;
  right?: PileCoordinate;
};


export type PileViewInput = ({
  id?: string;
  controller?: Controller;
  view?: View;
}) & (({ controller: unknown; }) | ({ view: unknown; }));

/** A view to push, or a view's new descriptor, with the animation and keyframes of the change. */
export type PileViewRequest = ({
  id?: string;
  controller?: Controller;
  view?: View;
  animation?: PileAnimation;
  fps?: Fps;
}) & (({ controller: unknown; }) | ({ view: unknown; }));


export type PileInput = {
  id?: StackID;
  bounds: {
    x?: number;
    y?: number;
    width: number;
    height: number;
  };
  metrics?: {
    leading?: PileMetric;
    active?: PileMetric;
    trailing?: PileMetric;
  };
  /** The pile's default animation, `true` (Pile's) or an object over Pile's (a spring or a timing curve); not `false` (422). */
  animation?: (PileAnimation);
  views?: Array<PileViewInput>;
};


export type Pile = {
  id: StackID;
  revision: Revision;
  bounds: Rect;
  metrics: { [key: string]: unknown };
  /** The default animation: `{duration, delay, damping, initialVelocity, curve: spring}` or `{duration, delay, curve}` for a timing curve. */
  animation: { [key: string]: unknown };
  active: string | null;
  views: Array<{
    id: string;
    index: number;
    active: boolean;
    transform?: PileMatrix;
  }>;
};


export type PilePlan = {
  revision: number;
  animated: boolean;
  timing: ((Timing) | (CurveTiming));
  views: Array<{
    id: string;
    role: "enter" | "exit";
    removed: boolean;
    from: PileViewState;
    to: PileViewState;
  }>;
  fps?: Fps;
  keyframes?: Keyframes;
};


export type PileMutation = {
  revision: number;
  pile: Pile;
  events: Array<{
    type: "viewPushed" | "viewPopped" | "viewsSet" | "viewUpdated" | "activeChanged";
  }>;
  transition?: PilePlan;
};

/** A pile's journaled events after a revision, each with the revision its mutation made. */
export type PileEventHistory = {
  /** As for stacks (`EventHistory.next`). */
  next?: string;
  /** The pile's current revision. */
  revision: (Revision);
  events: Array<{
    type: "viewPushed" | "viewPopped" | "viewsSet" | "viewUpdated" | "activeChanged";
    revision: number;
  }>;
};

/** Every failure. `revision` is present on 412 answers only. */
export type Error = {
  error: {
    status: number;
    code: "busy" | "misdirected_request" | "work_budget_exceeded" | "malformed_json" | "bad_query_parameter" | "bad_header" | "bad_request" | "not_implemented" | "stack_not_found" | "row_not_found" | "revision_not_found" | "route_not_found" | "pile_not_found" | "transition_not_found" | "pile_empty" | "pile_last_view" | "unknown_view" | "method_not_allowed" | "duplicate_id" | "no_menu" | "stack_embedded" | "embedding_cycle" | "precondition_failed" | "revision_conflict" | "payload_too_large" | "unsupported_media_type" | "wrong_type" | "missing_field" | "unknown_field" | "invalid_value" | "unknown_row" | "index_out_of_range" | "empty_batch" | "internal_error" | "storage_unavailable" | "stack_unavailable" | "nesting_too_deep" | "unauthorized" | "invalid_token" | "insufficient_scope" | "origin_not_allowed" | "font_not_found" | "font_unusable" | "font_family_reserved" | "font_face_exists" | "font_limit_reached" | "font_in_use" | "font_deletion_unsupported";
    message: string;
    /** The JSON path of the offending input (`rows[2].size.fixed`), a query parameter's name, or null. */
    field: string | null;
    /** The stack's current revision (412), or the latest revision the store holds (409 `revision_conflict`). */
    revision?: number;
  };
};

/** How each operation is sent: method, path template, query and header parameters, body and answer kinds. */
export const operations = {
  index: { method: "GET", path: "/", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  contractYAML: { method: "GET", path: "/openapi.yaml", query: [], arrays: [], headers: [], body: "none", answer: "text" },
  contractJSON: { method: "GET", path: "/openapi.json", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  health: { method: "GET", path: "/healthz", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  detailedHealth: { method: "GET", path: "/v1/health", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  metrics: { method: "GET", path: "/metrics", query: [], arrays: [], headers: [], body: "none", answer: "text" },
  listStacks: { method: "GET", path: "/v1/stacks", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  createStack: { method: "POST", path: "/v1/stacks", query: [], arrays: [], headers: ["Prefer"], body: "json", answer: "json" },
  getStack: { method: "GET", path: "/v1/stacks/{stack}", query: ["revision"], arrays: [], headers: ["If-None-Match"], body: "none", answer: "json" },
  putStack: { method: "PUT", path: "/v1/stacks/{stack}", query: [], arrays: [], headers: ["If-Match", "Prefer", "If-None-Match"], body: "json", answer: "json" },
  patchStack: { method: "PATCH", path: "/v1/stacks/{stack}", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  deleteStack: { method: "DELETE", path: "/v1/stacks/{stack}", query: [], arrays: [], headers: ["If-Match"], body: "none", answer: "none" },
  insertRows: { method: "POST", path: "/v1/stacks/{stack}/rows", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  listRows: { method: "GET", path: "/v1/stacks/{stack}/rows", query: ["controller", "instance", "first", "from", "limit"], arrays: [], headers: ["If-None-Match"], body: "none", answer: "json" },
  removeAllRows: { method: "DELETE", path: "/v1/stacks/{stack}/rows", query: ["fps"], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  batchRows: { method: "POST", path: "/v1/stacks/{stack}/rows/batch", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  getRow: { method: "GET", path: "/v1/stacks/{stack}/rows/{row}", query: [], arrays: [], headers: ["If-None-Match"], body: "none", answer: "json" },
  replaceRow: { method: "PUT", path: "/v1/stacks/{stack}/rows/{row}", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  patchRow: { method: "PATCH", path: "/v1/stacks/{stack}/rows/{row}", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  removeRow: { method: "DELETE", path: "/v1/stacks/{stack}/rows/{row}", query: ["fps"], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  getRowAt: { method: "GET", path: "/v1/stacks/{stack}/rows/at/{index}", query: [], arrays: [], headers: ["If-None-Match"], body: "none", answer: "json" },
  replaceRowAt: { method: "PUT", path: "/v1/stacks/{stack}/rows/at/{index}", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  patchRowAt: { method: "PATCH", path: "/v1/stacks/{stack}/rows/at/{index}", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  removeRowAt: { method: "DELETE", path: "/v1/stacks/{stack}/rows/at/{index}", query: ["fps"], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  moveRow: { method: "POST", path: "/v1/stacks/{stack}/rows/{row}/move", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  moveRowAt: { method: "POST", path: "/v1/stacks/{stack}/rows/at/{index}/move", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  getLayout: { method: "GET", path: "/v1/stacks/{stack}/layout", query: ["offset", "width", "height", "window", "content", "depth", "revision", "scrollTo", "position", "devices", "from", "limit", "scale"], arrays: ["devices"], headers: ["If-None-Match", "Accept"], body: "none", answer: "json" },
  hitTest: { method: "GET", path: "/v1/stacks/{stack}/hit", query: ["x", "y"], arrays: [], headers: ["If-None-Match"], body: "none", answer: "json" },
  scroll: { method: "POST", path: "/v1/stacks/{stack}/scroll", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  settle: { method: "POST", path: "/v1/stacks/{stack}/scroll/settle", query: [], arrays: [], headers: ["If-Match"], body: "json", answer: "json" },
  menuWindow: { method: "GET", path: "/v1/stacks/{stack}/menu/window", query: ["around", "width"], arrays: [], headers: [], body: "none", answer: "json" },
  menuSelect: { method: "POST", path: "/v1/stacks/{stack}/menu/select", query: [], arrays: [], headers: ["If-Match"], body: "json", answer: "json" },
  copyStack: { method: "POST", path: "/v1/stacks/{stack}/copy", query: [], arrays: [], headers: ["Prefer"], body: "json", answer: "json" },
  revert: { method: "POST", path: "/v1/stacks/{stack}/revert", query: [], arrays: [], headers: ["If-Match", "Prefer"], body: "json", answer: "json" },
  eventHistory: { method: "GET", path: "/v1/stacks/{stack}/events", query: ["ticket", "after", "limit"], arrays: [], headers: ["Last-Event-ID"], body: "none", answer: "json" },
  listFonts: { method: "GET", path: "/v1/fonts", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  uploadFont: { method: "POST", path: "/v1/fonts", query: [], arrays: [], headers: [], body: "bytes", answer: "json" },
  getFont: { method: "GET", path: "/v1/fonts/{font}", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  deleteFont: { method: "DELETE", path: "/v1/fonts/{font}", query: [], arrays: [], headers: [], body: "none", answer: "none" },
  listDevices: { method: "GET", path: "/v1/devices", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  createEventTicket: { method: "POST", path: "/v1/event-tickets", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  statelessLayout: { method: "POST", path: "/v1/layout", query: ["offset", "width", "height", "window", "content", "depth", "scrollTo", "position", "devices", "from", "limit", "scale"], arrays: ["devices"], headers: ["Accept"], body: "json", answer: "json" },
  getLayoutSVG: { method: "GET", path: "/v1/stacks/{stack}/layout.svg", query: ["offset", "width", "height", "window", "revision", "scrollTo", "position", "devices", "from", "limit"], arrays: ["devices"], headers: [], body: "none", answer: "text" },
  getLayoutPNG: { method: "GET", path: "/v1/stacks/{stack}/layout.png", query: ["offset", "width", "height", "window", "revision", "scrollTo", "position", "devices", "from", "limit", "scale"], arrays: ["devices"], headers: [], body: "none", answer: "bytes" },
  getLayoutDiff: { method: "GET", path: "/v1/stacks/{stack}/diff", query: ["from", "to"], arrays: [], headers: [], body: "none", answer: "json" },
  getLayoutDiffSVG: { method: "GET", path: "/v1/stacks/{stack}/diff.svg", query: ["from", "to"], arrays: [], headers: [], body: "none", answer: "text" },
  getLayoutDiffPNG: { method: "GET", path: "/v1/stacks/{stack}/diff.png", query: ["from", "to", "scale"], arrays: [], headers: [], body: "none", answer: "bytes" },
  statelessLayoutSVG: { method: "POST", path: "/v1/layout.svg", query: ["offset", "width", "height", "window", "content", "scrollTo", "position", "devices", "from", "limit"], arrays: ["devices"], headers: [], body: "json", answer: "text" },
  statelessLayoutPNG: { method: "POST", path: "/v1/layout.png", query: ["offset", "width", "height", "window", "content", "scrollTo", "position", "devices", "from", "limit", "scale"], arrays: ["devices"], headers: [], body: "json", answer: "bytes" },
  viewerIndex: { method: "GET", path: "/view", query: [], arrays: [], headers: [], body: "none", answer: "text" },
  viewer: { method: "GET", path: "/view/{stack}", query: [], arrays: [], headers: [], body: "none", answer: "text" },
  stackTransition: { method: "GET", path: "/v1/stacks/{stack}/transitions/{revision}", query: ["fps"], arrays: [], headers: [], body: "none", answer: "json" },
  listPiles: { method: "GET", path: "/v1/piles", query: [], arrays: [], headers: [], body: "none", answer: "json" },
  createPile: { method: "POST", path: "/v1/piles", query: [], arrays: [], headers: [], body: "json", answer: "json" },
  getPile: { method: "GET", path: "/v1/piles/{pile}", query: [], arrays: [], headers: ["If-None-Match"], body: "none", answer: "json" },
  deletePile: { method: "DELETE", path: "/v1/piles/{pile}", query: [], arrays: [], headers: ["If-Match"], body: "none", answer: "none" },
  pushView: { method: "POST", path: "/v1/piles/{pile}/push", query: ["fps"], arrays: [], headers: ["If-Match"], body: "json", answer: "json" },
  popView: { method: "POST", path: "/v1/piles/{pile}/pop", query: ["fps"], arrays: [], headers: ["If-Match"], body: "json", answer: "json" },
  setViews: { method: "POST", path: "/v1/piles/{pile}/set", query: ["fps"], arrays: [], headers: ["If-Match"], body: "json", answer: "json" },
  updateView: { method: "POST", path: "/v1/piles/{pile}/update", query: ["fps"], arrays: [], headers: ["If-Match"], body: "json", answer: "json" },
  pileEvents: { method: "GET", path: "/v1/piles/{pile}/events", query: ["ticket", "after", "limit"], arrays: [], headers: [], body: "none", answer: "json" },
  pileTransition: { method: "GET", path: "/v1/piles/{pile}/transitions/{revision}", query: ["fps"], arrays: [], headers: [], body: "none", answer: "json" },
} as const;

export type OperationID = keyof typeof operations;

export interface IndexArgs {
}

export type IndexAnswer = ({
  name: "ScrollStack Server";
  /** The contract's `info.version`. */
  version: string;
  links: {
    /** The contract as YAML, whose descriptions are the reference (`/openapi.yaml`). */
    docs: "/openapi.yaml";
    /** The contract as JSON (`/openapi.json`). */
    contract: "/openapi.json";
    viewer: "/view";
    health: "/healthz";
  };
});

export interface ContractYAMLArgs {
}

export type ContractYAMLAnswer = (string);

export interface ContractJSONArgs {
}

export type ContractJSONAnswer = ({ [key: string]: unknown });

export interface HealthArgs {
}

export type HealthAnswer = ({
  /** `degraded` when some stacks cannot be served: start-up could not rebuild them, or their journal was found damaged (they answer 503 `stack_unavailable`; every other stack is served). */
  status: "ok" | "degraded";
  /** How many stacks cannot be served; present only when there are some. Their ids are not told to anonymous callers (the log and `GET /v1/health` name them). */
  unavailableStacks?: number;
});

export interface DetailedHealthArgs {
}

export type DetailedHealthAnswer = ({
  status: "ok" | "degraded";
  unavailableStacks: Array<{
    id: string;
    /** Why it cannot be served (as its 503 `stack_unavailable` says). */
    reason: string;
  }>;
  /** Only on replicas (`--store postgres://…`): who writes which stack. A stack's writes go to one member, and the other replicas forward them to it (Semantics.md, "One writer per stack"). */
  writers?: {
    /** This replica's `--advertise-url`, or null (it forwards writes but owns no stack). */
    address: string | null;
    /** The members this replica saw at its last look (about once a second), sorted. */
    members: Array<string>;
    /** Writes this replica forwarded to their stack's owner since it started. */
    forwarded: number;
    /** Writes this replica made itself since it started because their owner could not be reached. */
    unreachable: number;
  };
});

export interface MetricsArgs {
}

export type MetricsAnswer = (string);

export interface ListStacksArgs {
}

export type ListStacksAnswer = (Array<StackSummary>);

export interface CreateStackArgs {
  headers?: { Prefer?: string };
  body: StackInput;
}

export type CreateStackAnswer = ((((Stack) & ({
  revision?: 1;
})) | (MinimalResult)));

export interface GetStackArgs {
  path: { stack: StackID };
  query?: { revision?: number };
  headers?: { "If-None-Match"?: string };
}

export type GetStackAnswer = (Stack);

export interface PutStackArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string; Prefer?: string; "If-None-Match"?: "*" };
  body: StackInput;
}

export type PutStackAnswer = (((MutationResult) | (MinimalResult))) | ((((Stack) & ({
  revision?: 1;
})) | (MinimalResult)));

export interface PatchStackArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: (StackSettings) & (unknown);
}

export type PatchStackAnswer = (((MutationResult) | (MinimalResult)));

export interface DeleteStackArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string };
}

export type DeleteStackAnswer = (void);

export interface InsertRowsArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: InsertRows;
}

export type InsertRowsAnswer = (((MutationResult) | (MinimalResult)));

export interface ListRowsArgs {
  path: { stack: StackID };
  query?: { controller?: string; instance?: string; first?: "true" | "false" | "1" | "0" | ""; from?: number; limit?: number };
  headers?: { "If-None-Match"?: string };
}

export type ListRowsAnswer = ({
  revision: Revision;
  rows: Array<RowWithIndex>;
  page?: Page;
  next?: NextLink;
});

export interface RemoveAllRowsArgs {
  path: { stack: StackID };
  query?: { fps?: Fps };
  headers?: { "If-Match"?: string; Prefer?: string };
  body?: {
  animation?: Animation;
  fps?: Fps;
};
}

export type RemoveAllRowsAnswer = (((MutationResult) | (MinimalResult)));

export interface BatchRowsArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: Batch;
}

export type BatchRowsAnswer = (((MutationResult) | (MinimalResult)));

export interface GetRowArgs {
  path: { stack: StackID; row: string };
  headers?: { "If-None-Match"?: string };
}

export type GetRowAnswer = (RowWithLayout);

export interface ReplaceRowArgs {
  path: { stack: StackID; row: string };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: RowInput;
}

export type ReplaceRowAnswer = (((MutationResult) | (MinimalResult)));

export interface PatchRowArgs {
  path: { stack: StackID; row: string };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: RowPatch;
}

export type PatchRowAnswer = (((MutationResult) | (MinimalResult)));

export interface RemoveRowArgs {
  path: { stack: StackID; row: string };
  query?: { fps?: Fps };
  headers?: { "If-Match"?: string; Prefer?: string };
  body?: {
  animation?: Animation;
  fps?: Fps;
};
}

export type RemoveRowAnswer = (((MutationResult) | (MinimalResult)));

export interface GetRowAtArgs {
  path: { stack: StackID; index: number };
  headers?: { "If-None-Match"?: string };
}

export type GetRowAtAnswer = (RowWithLayout);

export interface ReplaceRowAtArgs {
  path: { stack: StackID; index: number };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: RowInput;
}

export type ReplaceRowAtAnswer = (((MutationResult) | (MinimalResult)));

export interface PatchRowAtArgs {
  path: { stack: StackID; index: number };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: RowPatch;
}

export type PatchRowAtAnswer = (((MutationResult) | (MinimalResult)));

export interface RemoveRowAtArgs {
  path: { stack: StackID; index: number };
  query?: { fps?: Fps };
  headers?: { "If-Match"?: string; Prefer?: string };
  body?: {
  animation?: Animation;
  fps?: Fps;
};
}

export type RemoveRowAtAnswer = (((MutationResult) | (MinimalResult)));

export interface MoveRowArgs {
  path: { stack: StackID; row: string };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: Move;
}

export type MoveRowAnswer = (((MutationResult) | (MinimalResult)));

export interface MoveRowAtArgs {
  path: { stack: StackID; index: number };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: Move;
}

export type MoveRowAtAnswer = (((MutationResult) | (MinimalResult)));

export interface GetLayoutArgs {
  path: { stack: StackID };
  query?: { offset?: string; width?: Length; height?: Length; window?: "all" | "visible"; content?: "none" | "frames"; depth?: number; revision?: number; scrollTo?: string; position?: "initial" | "middle" | "final" | "automatic"; devices?: Array<DeviceName>; from?: number; limit?: number; scale?: number };
  headers?: { "If-None-Match"?: string; Accept?: string };
}

export type GetLayoutAnswer = ((((Layout) & ({ revision: unknown; })) | ((DeviceLayouts) & ({ revision: unknown; }))));

export interface HitTestArgs {
  path: { stack: StackID };
  query: { x: number; y: number };
  headers?: { "If-None-Match"?: string };
}

export type HitTestAnswer = (HitResult);

export interface ScrollArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: ScrollTarget;
}

export type ScrollAnswer = (((MutationResult) | (ScrollDryRun)));

export interface SettleArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string };
  body: {
  /** Points per second along the scroll axis, or a point (x, y) for a stack that scrolls across (`crossLength`); a velocity across is 422 for any other stack. */
  velocity: ((number) | ({
    x?: number;
    y?: number;
  }));
  /** The release point (a number along the scroll axis, or a point); default the stack's offset. */
  offset?: ((Coordinate) | (Point));
  decelerationRate?: (("normal" | "fast") | (number));
  fps?: number;
  dryRun?: boolean;
};
}

export type SettleAnswer = ({
  revision: Revision;
  dryRun?: true;
  changed?: Array<unknown>;
  events?: Array<Event>;
  release: FullPoint;
  target: FullPoint;
  page: number | null;
  motion: "deceleration" | "spring";
  decelerationRate: number;
  duration: number;
  fps: number;
  curve: Array<SettleSample>;
  /** The settle across the scroll axis, for a stack that scrolls across (`crossLength`) only; its `curve` samples the offset across. */
  cross?: {
    page: number | null;
    motion: "deceleration" | "spring";
    duration: number;
    curve: Array<SettleSample>;
  };
});

export interface MenuWindowArgs {
  path: { stack: StackID };
  query: { around: string; width?: number };
}

export type MenuWindowAnswer = ({
  revision: Revision;
  around: MenuWindowItem;
  before: Array<MenuWindowItem>;
  after: Array<MenuWindowItem>;
  missingBefore: MenuWindowMissing;
  missingAfter: MenuWindowMissing;
});

export interface MenuSelectArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string };
  body: {
  row?: RowReference;
  /** An item index. */
  index?: number;
};
}

export type MenuSelectAnswer = ({
  revision: Revision;
  changed: Array<unknown>;
  events: Array<Event>;
  paging: PagingState;
  /** The paging state across the scroll axis, for a paging stack that scrolls across (`crossLength`) only. */
  crossPaging?: PagingState;
  pageIndicator?: PageIndicatorLayout;
  menu: MenuLayout;
});

export interface CopyStackArgs {
  path: { stack: StackID };
  headers?: { Prefer?: string };
  body: {
  /** The copy's id (generated as `s-` and 12 hex digits when absent). */
  id?: StackID;
  /** The source's revision to copy (default the current one). */
  revision?: number;
};
}

export type CopyStackAnswer = ((((Stack) & ({
  revision?: 1;
})) | (MinimalResult)));

export interface RevertArgs {
  path: { stack: StackID };
  headers?: { "If-Match"?: string; Prefer?: string };
  body: {
  /** The revision to return to, 1 … the current one (otherwise 422 `invalid_value`). */
  to: number;
  animation?: Animation;
  fps?: Fps;
};
}

export type RevertAnswer = (((MutationResult) | (MinimalResult)));

export interface EventHistoryArgs {
  path: { stack: StackID };
  query?: { ticket?: string; after?: number; limit?: number };
  headers?: { "Last-Event-ID"?: string };
}

export type EventHistoryAnswer = (EventHistory);

export interface ListFontsArgs {
}

export type ListFontsAnswer = (Fonts);

export interface UploadFontArgs {
  body: Uint8Array;
}

export type UploadFontAnswer = (UploadedFont);

export interface GetFontArgs {
  path: { font: string };
}

export type GetFontAnswer = (UploadedFont);

export interface DeleteFontArgs {
  path: { font: string };
}

export type DeleteFontAnswer = (void);

export interface ListDevicesArgs {
}

export type ListDevicesAnswer = ({
  devices: Array<Device>;
});

export interface CreateEventTicketArgs {
}

export type CreateEventTicketAnswer = ({
  ticket: string;
  expiresIn: 600;
});

export interface StatelessLayoutArgs {
  query?: { offset?: string; width?: Length; height?: Length; window?: "all" | "visible"; content?: "none" | "frames"; depth?: number; scrollTo?: string; position?: "initial" | "middle" | "final" | "automatic"; devices?: Array<DeviceName>; from?: number; limit?: number; scale?: number };
  headers?: { Accept?: string };
  body: LayoutInput;
}

export type StatelessLayoutAnswer = ((((Layout) & (unknown)) | ((DeviceLayouts) & (unknown))));

export interface GetLayoutSVGArgs {
  path: { stack: StackID };
  query?: { offset?: string; width?: Length; height?: Length; window?: "all" | "visible"; revision?: number; scrollTo?: string; position?: "initial" | "middle" | "final" | "automatic"; devices?: Array<DeviceName>; from?: number; limit?: number };
}

export type GetLayoutSVGAnswer = (string);

export interface GetLayoutPNGArgs {
  path: { stack: StackID };
  query?: { offset?: string; width?: Length; height?: Length; window?: "all" | "visible"; revision?: number; scrollTo?: string; position?: "initial" | "middle" | "final" | "automatic"; devices?: Array<DeviceName>; from?: number; limit?: number; scale?: number };
}

export type GetLayoutPNGAnswer = (Uint8Array);

export interface GetLayoutDiffArgs {
  path: { stack: StackID };
  query: { from: number; to?: number };
}

export type GetLayoutDiffAnswer = (LayoutDiff);

export interface GetLayoutDiffSVGArgs {
  path: { stack: StackID };
  query: { from: number; to?: number };
}

export type GetLayoutDiffSVGAnswer = (string);

export interface GetLayoutDiffPNGArgs {
  path: { stack: StackID };
  query: { from: number; to?: number; scale?: number };
}

export type GetLayoutDiffPNGAnswer = (Uint8Array);

export interface StatelessLayoutSVGArgs {
  query?: { offset?: string; width?: Length; height?: Length; window?: "all" | "visible"; content?: "none" | "frames"; scrollTo?: string; position?: "initial" | "middle" | "final" | "automatic"; devices?: Array<DeviceName>; from?: number; limit?: number };
  body: LayoutInput;
}

export type StatelessLayoutSVGAnswer = (string);

export interface StatelessLayoutPNGArgs {
  query?: { offset?: string; width?: Length; height?: Length; window?: "all" | "visible"; content?: "none" | "frames"; scrollTo?: string; position?: "initial" | "middle" | "final" | "automatic"; devices?: Array<DeviceName>; from?: number; limit?: number; scale?: number };
  body: LayoutInput;
}

export type StatelessLayoutPNGAnswer = (Uint8Array);

export interface ViewerIndexArgs {
}

export type ViewerIndexAnswer = (string);

export interface ViewerArgs {
  path: { stack: string };
}

export type ViewerAnswer = (string);

export interface StackTransitionArgs {
  path: { stack: StackID; revision: number };
  query?: { fps?: Fps };
}

export type StackTransitionAnswer = (TransitionPlan);

export interface ListPilesArgs {
}

export type ListPilesAnswer = (Array<{ [key: string]: unknown }>);

export interface CreatePileArgs {
  body: PileInput;
}

export type CreatePileAnswer = (Pile);

export interface GetPileArgs {
  path: { pile: StackID };
  headers?: { "If-None-Match"?: string };
}

export type GetPileAnswer = (Pile);

export interface DeletePileArgs {
  path: { pile: StackID };
  headers?: { "If-Match"?: string };
}

export type DeletePileAnswer = (void);

export interface PushViewArgs {
  path: { pile: StackID };
  query?: { fps?: Fps };
  headers?: { "If-Match"?: string };
  body: PileViewRequest;
}

export type PushViewAnswer = (PileMutation);

export interface PopViewArgs {
  path: { pile: StackID };
  query?: { fps?: Fps };
  headers?: { "If-Match"?: string };
  body?: {
  animation?: PileAnimation;
  fps?: Fps;
};
}

export type PopViewAnswer = (PileMutation);

export interface SetViewsArgs {
  path: { pile: StackID };
  query?: { fps?: Fps };
  headers?: { "If-Match"?: string };
  body: {
  views: Array<PileViewInput>;
  animation?: PileAnimation;
  fps?: Fps;
};
}

export type SetViewsAnswer = (PileMutation);

export interface UpdateViewArgs {
  path: { pile: StackID };
  query?: { fps?: Fps };
  headers?: { "If-Match"?: string };
  body: PileViewRequest;
}

export type UpdateViewAnswer = (PileMutation);

export interface PileEventsArgs {
  path: { pile: StackID };
  query?: { ticket?: string; after?: number; limit?: number };
}

export type PileEventsAnswer = (PileEventHistory);

export interface PileTransitionArgs {
  path: { pile: StackID; revision: number };
  query?: { fps?: Fps };
}

export type PileTransitionAnswer = (PilePlan);

/** A success answer: its status, headers (ETag for `If-Match`), and body. */
export interface Reply<T> {
  status: number;
  etag: string | null;
  headers: Headers;
  body: T;
}

/** Every operation of the contract as a typed method; `call` sends it (see client.ts). */
export abstract class ScrollStackOperations {
  protected abstract call(id: OperationID, args: {
    path?: { [name: string]: string | number };
    query?: { [name: string]: unknown };
    headers?: { [name: string]: string | undefined };
    body?: unknown;
  }): Promise<Reply<unknown>>;

  /** GET /: What this server is and where to go next; needs no token. */
  index(args?: IndexArgs): Promise<Reply<IndexAnswer>> {
    return this.call("index", args ?? {}) as Promise<Reply<IndexAnswer>>;
  }

  /** GET /openapi.yaml: This contract, as YAML (Docs/openapi.yaml of the build); needs no token. */
  contractYAML(args?: ContractYAMLArgs): Promise<Reply<ContractYAMLAnswer>> {
    return this.call("contractYAML", args ?? {}) as Promise<Reply<ContractYAMLAnswer>>;
  }

  /** GET /openapi.json: This contract, as JSON (the same document as `/openapi.yaml`); needs no token. */
  contractJSON(args?: ContractJSONArgs): Promise<Reply<ContractJSONAnswer>> {
    return this.call("contractJSON", args ?? {}) as Promise<Reply<ContractJSONAnswer>>;
  }

  /** GET /healthz: Liveness. */
  health(args?: HealthArgs): Promise<Reply<HealthAnswer>> {
    return this.call("health", args ?? {}) as Promise<Reply<HealthAnswer>>;
  }

  /** GET /v1/health: The health status, with each unavailable stack and why (behind the tokens). */
  detailedHealth(args?: DetailedHealthArgs): Promise<Reply<DetailedHealthAnswer>> {
    return this.call("detailedHealth", args ?? {}) as Promise<Reply<DetailedHealthAnswer>>;
  }

  /** GET /metrics: Request counts and latencies, connections, streams, stacks, rows, journal commits (Prometheus text format). */
  metrics(args?: MetricsArgs): Promise<Reply<MetricsAnswer>> {
    return this.call("metrics", args ?? {}) as Promise<Reply<MetricsAnswer>>;
  }

  /** GET /v1/stacks: Every stack, ordered by id. */
  listStacks(args?: ListStacksArgs): Promise<Reply<ListStacksAnswer>> {
    return this.call("listStacks", args ?? {}) as Promise<Reply<ListStacksAnswer>>;
  }

  /** POST /v1/stacks: Create a stack (settings and rows); answers the whole model (with `Prefer: return=minimal`, its id and revision). */
  createStack(args: CreateStackArgs): Promise<Reply<CreateStackAnswer>> {
    return this.call("createStack", args ?? {}) as Promise<Reply<CreateStackAnswer>>;
  }

  /** GET /v1/stacks/{stack}: The whole model, rows in order (now, or at a past revision). */
  getStack(args: GetStackArgs): Promise<Reply<GetStackAnswer>> {
    return this.call("getStack", args ?? {}) as Promise<Reply<GetStackAnswer>>;
  }

  /** PUT /v1/stacks/{stack}: Create the stack, or replace it whole (settings and rows), from the create body. */
  putStack(args: PutStackArgs): Promise<Reply<PutStackAnswer>> {
    return this.call("putStack", args ?? {}) as Promise<Reply<PutStackAnswer>>;
  }

  /** PATCH /v1/stacks/{stack}: Change settings; nested objects merge member by member. */
  patchStack(args: PatchStackArgs): Promise<Reply<PatchStackAnswer>> {
    return this.call("patchStack", args ?? {}) as Promise<Reply<PatchStackAnswer>>;
  }

  /** DELETE /v1/stacks/{stack}: Delete a stack. */
  deleteStack(args: DeleteStackArgs): Promise<Reply<DeleteStackAnswer>> {
    return this.call("deleteStack", args ?? {}) as Promise<Reply<DeleteStackAnswer>>;
  }

  /** POST /v1/stacks/{stack}/rows: Insert rows as one block, in input order (at the bottom unless `at` says otherwise). */
  insertRows(args: InsertRowsArgs): Promise<Reply<InsertRowsAnswer>> {
    return this.call("insertRows", args ?? {}) as Promise<Reply<InsertRowsAnswer>>;
  }

  /** GET /v1/stacks/{stack}/rows: Rows with their indexes, optionally filtered by controller type or instance. */
  listRows(args: ListRowsArgs): Promise<Reply<ListRowsAnswer>> {
    return this.call("listRows", args ?? {}) as Promise<Reply<ListRowsAnswer>>;
  }

  /** DELETE /v1/stacks/{stack}/rows: Remove every row; they come back in `removed`, in order. */
  removeAllRows(args: RemoveAllRowsArgs): Promise<Reply<RemoveAllRowsAnswer>> {
    return this.call("removeAllRows", args ?? {}) as Promise<Reply<RemoveAllRowsAnswer>>;
  }

  /** POST /v1/stacks/{stack}/rows/batch: One operation (remove, hide, show, insets, reload) on many rows, atomically. */
  batchRows(args: BatchRowsArgs): Promise<Reply<BatchRowsAnswer>> {
    return this.call("batchRows", args ?? {}) as Promise<Reply<BatchRowsAnswer>>;
  }

  /** GET /v1/stacks/{stack}/rows/{row}: One row, by id, with its index, frames and visibility. */
  getRow(args: GetRowArgs): Promise<Reply<GetRowAnswer>> {
    return this.call("getRow", args ?? {}) as Promise<Reply<GetRowAnswer>>;
  }

  /** PUT /v1/stacks/{stack}/rows/{row}: Replace the row in place; it keeps its id unless the body gives one. */
  replaceRow(args: ReplaceRowArgs): Promise<Reply<ReplaceRowAnswer>> {
    return this.call("replaceRow", args ?? {}) as Promise<Reply<ReplaceRowAnswer>>;
  }

  /** PATCH /v1/stacks/{stack}/rows/{row}: Change some of the row's members; the row is re-measured. */
  patchRow(args: PatchRowArgs): Promise<Reply<PatchRowAnswer>> {
    return this.call("patchRow", args ?? {}) as Promise<Reply<PatchRowAnswer>>;
  }

  /** DELETE /v1/stacks/{stack}/rows/{row}: Remove the row; it comes back in `removed` with its former index. */
  removeRow(args: RemoveRowArgs): Promise<Reply<RemoveRowAnswer>> {
    return this.call("removeRow", args ?? {}) as Promise<Reply<RemoveRowAnswer>>;
  }

  /** GET /v1/stacks/{stack}/rows/at/{index}: One row, by index, with its index, frames and visibility. */
  getRowAt(args: GetRowAtArgs): Promise<Reply<GetRowAtAnswer>> {
    return this.call("getRowAt", args ?? {}) as Promise<Reply<GetRowAtAnswer>>;
  }

  /** PUT /v1/stacks/{stack}/rows/at/{index}: Replace the row at an index; it keeps its id unless the body gives one. */
  replaceRowAt(args: ReplaceRowAtArgs): Promise<Reply<ReplaceRowAtAnswer>> {
    return this.call("replaceRowAt", args ?? {}) as Promise<Reply<ReplaceRowAtAnswer>>;
  }

  /** PATCH /v1/stacks/{stack}/rows/at/{index}: Change some of the members of the row at an index; it is re-measured. */
  patchRowAt(args: PatchRowAtArgs): Promise<Reply<PatchRowAtAnswer>> {
    return this.call("patchRowAt", args ?? {}) as Promise<Reply<PatchRowAtAnswer>>;
  }

  /** DELETE /v1/stacks/{stack}/rows/at/{index}: Remove the row at an index; it comes back in `removed`. */
  removeRowAt(args: RemoveRowAtArgs): Promise<Reply<RemoveRowAtAnswer>> {
    return this.call("removeRowAt", args ?? {}) as Promise<Reply<RemoveRowAtAnswer>>;
  }

  /** POST /v1/stacks/{stack}/rows/{row}/move: Move the row (by id) so that it ends at index `to`; its hidden state is kept. */
  moveRow(args: MoveRowArgs): Promise<Reply<MoveRowAnswer>> {
    return this.call("moveRow", args ?? {}) as Promise<Reply<MoveRowAnswer>>;
  }

  /** POST /v1/stacks/{stack}/rows/at/{index}/move: Move the row at an index so that it ends at index `to`. */
  moveRowAt(args: MoveRowAtArgs): Promise<Reply<MoveRowAtAnswer>> {
    return this.call("moveRowAt", args ?? {}) as Promise<Reply<MoveRowAtAnswer>>;
  }

  /** GET /v1/stacks/{stack}/layout: The computed layout; the query's overrides change nothing stored. */
  getLayout(args: GetLayoutArgs): Promise<Reply<GetLayoutAnswer>> {
    return this.call("getLayout", args ?? {}) as Promise<Reply<GetLayoutAnswer>>;
  }

  /** GET /v1/stacks/{stack}/hit: The row under a point given in viewport coordinates, or null. */
  hitTest(args: HitTestArgs): Promise<Reply<HitTestAnswer>> {
    return this.call("hitTest", args ?? {}) as Promise<Reply<HitTestAnswer>>;
  }

  /** POST /v1/stacks/{stack}/scroll: Scroll to an offset, to a row (with a position), to the top or the bottom, or to a page; or, with dryRun, say where. */
  scroll(args: ScrollArgs): Promise<Reply<ScrollAnswer>> {
    return this.call("scroll", args ?? {}) as Promise<Reply<ScrollAnswer>>;
  }

  /** POST /v1/stacks/{stack}/scroll/settle: Where a released drag comes to rest (deceleration, or a spring onto a page), and scroll there unless dryRun. */
  settle(args: SettleArgs): Promise<Reply<SettleAnswer>> {
    return this.call("settle", args ?? {}) as Promise<Reply<SettleAnswer>>;
  }

  /** GET /v1/stacks/{stack}/menu/window: Parchment's infinite data source — the items around a selected one that fill a menu of a width. */
  menuWindow(args: MenuWindowArgs): Promise<Reply<MenuWindowAnswer>> {
    return this.call("menuWindow", args ?? {}) as Promise<Reply<MenuWindowAnswer>>;
  }

  /** POST /v1/stacks/{stack}/menu/select: Select a menu item; the pages scroll to it along the stack's axis (y over vertical pages). */
  menuSelect(args: MenuSelectArgs): Promise<Reply<MenuSelectAnswer>> {
    return this.call("menuSelect", args ?? {}) as Promise<Reply<MenuSelectAnswer>>;
  }

  /** POST /v1/stacks/{stack}/copy: A new stack holding this one's settings and rows, now or at a past revision. */
  copyStack(args: CopyStackArgs): Promise<Reply<CopyStackAnswer>> {
    return this.call("copyStack", args ?? {}) as Promise<Reply<CopyStackAnswer>>;
  }

  /** POST /v1/stacks/{stack}/revert: Make a new revision equal to a past one (its settings and rows). */
  revert(args: RevertArgs): Promise<Reply<RevertAnswer>> {
    return this.call("revert", args ?? {}) as Promise<Reply<RevertAnswer>>;
  }

  /** GET /v1/stacks/{stack}/events: The journaled events of the mutations after a revision, each tagged with its revision; or a live stream of them. */
  eventHistory(args: EventHistoryArgs): Promise<Reply<EventHistoryAnswer>> {
    return this.call("eventHistory", args ?? {}) as Promise<Reply<EventHistoryAnswer>>;
  }

  /** GET /v1/fonts: The font families text nodes can use, their faces, and the aliases. */
  listFonts(args?: ListFontsArgs): Promise<Reply<ListFontsAnswer>> {
    return this.call("listFonts", args ?? {}) as Promise<Reply<ListFontsAnswer>>;
  }

  /** POST /v1/fonts: Upload a TrueType or OpenType font (or collection) that text can use at once; kept in the store. */
  uploadFont(args: UploadFontArgs): Promise<Reply<UploadFontAnswer>> {
    return this.call("uploadFont", args ?? {}) as Promise<Reply<UploadFontAnswer>>;
  }

  /** GET /v1/fonts/{font}: One uploaded font. */
  getFont(args: GetFontArgs): Promise<Reply<GetFontAnswer>> {
    return this.call("getFont", args ?? {}) as Promise<Reply<GetFontAnswer>>;
  }

  /** DELETE /v1/fonts/{font}: Delete an uploaded font no text uses. */
  deleteFont(args: DeleteFontArgs): Promise<Reply<DeleteFontAnswer>> {
    return this.call("deleteFont", args ?? {}) as Promise<Reply<DeleteFontAnswer>>;
  }

  /** GET /v1/devices: The built-in devices `devices` takes, each upright and turned, with its size and safe area. */
  listDevices(args?: ListDevicesArgs): Promise<Reply<ListDevicesAnswer>> {
    return this.call("listDevices", args ?? {}) as Promise<Reply<ListDevicesAnswer>>;
  }

  /** POST /v1/event-tickets: A short-lived ticket that authorizes reading events (`?ticket=` on `…/events`), for `EventSource`, which cannot send `Authorization`. */
  createEventTicket(args?: CreateEventTicketArgs): Promise<Reply<CreateEventTicketAnswer>> {
    return this.call("createEventTicket", args ?? {}) as Promise<Reply<CreateEventTicketAnswer>>;
  }

  /** POST /v1/layout: A whole stack (the create body) in, its layout out; nothing is stored. */
  statelessLayout(args: StatelessLayoutArgs): Promise<Reply<StatelessLayoutAnswer>> {
    return this.call("statelessLayout", args ?? {}) as Promise<Reply<StatelessLayoutAnswer>>;
  }

  /** GET /v1/stacks/{stack}/layout.svg: The layout drawn as SVG 1.1 (the same query as the layout; see API.md, "Pictures"). */
  getLayoutSVG(args: GetLayoutSVGArgs): Promise<Reply<GetLayoutSVGAnswer>> {
    return this.call("getLayoutSVG", args ?? {}) as Promise<Reply<GetLayoutSVGAnswer>>;
  }

  /** GET /v1/stacks/{stack}/layout.png: The layout drawn as PNG with Cairo, the same picture as the SVG (the same query as the layout, and `scale`; see API.md, "Pictures"). */
  getLayoutPNG(args: GetLayoutPNGArgs): Promise<Reply<GetLayoutPNGAnswer>> {
    return this.call("getLayoutPNG", args ?? {}) as Promise<Reply<GetLayoutPNGAnswer>>;
  }

  /** GET /v1/stacks/{stack}/diff: What changed between the layouts of two revisions, rows matched by id. */
  getLayoutDiff(args: GetLayoutDiffArgs): Promise<Reply<GetLayoutDiffAnswer>> {
    return this.call("getLayoutDiff", args ?? {}) as Promise<Reply<GetLayoutDiffAnswer>>;
  }

  /** GET /v1/stacks/{stack}/diff.svg: The two layouts side by side (before | after), changed rows outlined, as SVG. */
  getLayoutDiffSVG(args: GetLayoutDiffSVGArgs): Promise<Reply<GetLayoutDiffSVGAnswer>> {
    return this.call("getLayoutDiffSVG", args ?? {}) as Promise<Reply<GetLayoutDiffSVGAnswer>>;
  }

  /** GET /v1/stacks/{stack}/diff.png: The same picture as the diff's SVG, as PNG. */
  getLayoutDiffPNG(args: GetLayoutDiffPNGArgs): Promise<Reply<GetLayoutDiffPNGAnswer>> {
    return this.call("getLayoutDiffPNG", args ?? {}) as Promise<Reply<GetLayoutDiffPNGAnswer>>;
  }

  /** POST /v1/layout.svg: The stateless layout (a whole stack in, nothing stored) drawn as SVG, whatever `Accept` says. */
  statelessLayoutSVG(args: StatelessLayoutSVGArgs): Promise<Reply<StatelessLayoutSVGAnswer>> {
    return this.call("statelessLayoutSVG", args ?? {}) as Promise<Reply<StatelessLayoutSVGAnswer>>;
  }

  /** POST /v1/layout.png: The stateless layout (a whole stack in, nothing stored) drawn as PNG, whatever `Accept` says. */
  statelessLayoutPNG(args: StatelessLayoutPNGArgs): Promise<Reply<StatelessLayoutPNGAnswer>> {
    return this.call("statelessLayoutPNG", args ?? {}) as Promise<Reply<StatelessLayoutPNGAnswer>>;
  }

  /** GET /view: The viewer's list of stacks (a self-contained HTML page; it reads the API with the token of its address's `#token=` fragment). */
  viewerIndex(args?: ViewerIndexArgs): Promise<Reply<ViewerIndexAnswer>> {
    return this.call("viewerIndex", args ?? {}) as Promise<Reply<ViewerIndexAnswer>>;
  }

  /** GET /view/{stack}: The viewer of one stack (self-contained HTML); scrolls with wheel, drag and keys, follows live events. */
  viewer(args: ViewerArgs): Promise<Reply<ViewerAnswer>> {
    return this.call("viewer", args ?? {}) as Promise<Reply<ViewerAnswer>>;
  }

  /** GET /v1/stacks/{stack}/transitions/{revision}: The transition plan kept with the change that made a revision. */
  stackTransition(args: StackTransitionArgs): Promise<Reply<StackTransitionAnswer>> {
    return this.call("stackTransition", args ?? {}) as Promise<Reply<StackTransitionAnswer>>;
  }

  /** GET /v1/piles: Every pile: id, revision, view count, active view. */
  listPiles(args?: ListPilesArgs): Promise<Reply<ListPilesAnswer>> {
    return this.call("listPiles", args ?? {}) as Promise<Reply<ListPilesAnswer>>;
  }

  /** POST /v1/piles: Create a pile. */
  createPile(args: CreatePileArgs): Promise<Reply<CreatePileAnswer>> {
    return this.call("createPile", args ?? {}) as Promise<Reply<CreatePileAnswer>>;
  }

  /** GET /v1/piles/{pile}: The pile. */
  getPile(args: GetPileArgs): Promise<Reply<GetPileAnswer>> {
    return this.call("getPile", args ?? {}) as Promise<Reply<GetPileAnswer>>;
  }

  /** DELETE /v1/piles/{pile}: Delete the pile (and end its live streams). */
  deletePile(args: DeletePileArgs): Promise<Reply<DeletePileAnswer>> {
    return this.call("deletePile", args ?? {}) as Promise<Reply<DeletePileAnswer>>;
  }

  /** POST /v1/piles/{pile}/push: Push a view: the active one goes active → trailing, the new one leading → active. */
  pushView(args: PushViewArgs): Promise<Reply<PushViewAnswer>> {
    return this.call("pushView", args ?? {}) as Promise<Reply<PushViewAnswer>>;
  }

  /** POST /v1/piles/{pile}/pop: Pop the top view (active → leading, removed); the one below comes trailing → active. 409 `pile_empty` / `pile_last_view`. */
  popView(args: PopViewArgs): Promise<Reply<PopViewAnswer>> {
    return this.call("popView", args ?? {}) as Promise<Reply<PopViewAnswer>>;
  }

  /** POST /v1/piles/{pile}/set: Replace every view. */
  setViews(args: SetViewsArgs): Promise<Reply<SetViewsAnswer>> {
    return this.call("setViews", args ?? {}) as Promise<Reply<SetViewsAnswer>>;
  }

  /** POST /v1/piles/{pile}/update: Change a view's descriptor (default the active one); nothing moves. 422 `unknown_view`. */
  updateView(args: UpdateViewArgs): Promise<Reply<UpdateViewAnswer>> {
    return this.call("updateView", args ?? {}) as Promise<Reply<UpdateViewAnswer>>;
  }

  /** GET /v1/piles/{pile}/events: The journaled events of the pile after a revision (or live with Accept text/event-stream), as for stacks. */
  pileEvents(args: PileEventsArgs): Promise<Reply<PileEventsAnswer>> {
    return this.call("pileEvents", args ?? {}) as Promise<Reply<PileEventsAnswer>>;
  }

  /** GET /v1/piles/{pile}/transitions/{revision}: The plan kept with the change that made a revision of the pile. */
  pileTransition(args: PileTransitionArgs): Promise<Reply<PileTransitionAnswer>> {
    return this.call("pileTransition", args ?? {}) as Promise<Reply<PileTransitionAnswer>>;
  }
}
