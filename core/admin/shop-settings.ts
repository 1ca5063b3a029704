// The shop's settings the console shows (decision 111), safe for the browser.

/** The longest return window an admin may set: 30 days (shop_settings' CHECK says the same). */
export const MAX_RETURN_WINDOW_HOURS = 720;
