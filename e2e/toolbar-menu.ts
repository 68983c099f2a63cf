// Reaching a toolbar control as a person does: in the row if it fits the window, else through the "⋯" menu.
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Makes `control` visible, opening the toolbar's "⋯" menu when the control is in it, and returns it. Which controls fit
 * the row depends on the window's width and on what the groups show (A/B flip widens Compare), so a spec asks each time.
 */
export async function toolbarControl(page: Page, control: Locator): Promise<Locator> {
  const more = page.getByRole('button', { name: 'More controls' });
  // retried: a group moves between the row and the menu a frame after it changes width
  await expect(async () => {
    if (!(await control.isVisible()) && (await more.isVisible()) && (await more.getAttribute('aria-expanded')) !== 'true')
      await more.click();
    await expect(control).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  return control;
}
