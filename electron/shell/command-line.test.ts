// The installed app as a command: which arguments run the command line and which open the viewer.
import { describe, expect, it } from 'vitest';
import { commandArgs } from './command-line.js';

const existing = new Set(['/work/shots', '/work/beauty.0001.exr', '/work/info']);
const args = (...a: string[]) => commandArgs(a, '/work', (path) => existing.has(path));

describe('commandArgs', () => {
  it('runs the command for a command name, --help or --version first', () => {
    expect(args('stats', 'a.exr', '--json')).toEqual(['stats', 'a.exr', '--json']);
    expect(args('thumbs', 'shots', '--out', 'thumbs')).toEqual(['thumbs', 'shots', '--out', 'thumbs']);
    expect(args('--help')).toEqual(['--help']);
    expect(args('-h')).toEqual(['-h']);
    expect(args('--version')).toEqual(['--version']);
    expect(args('help', 'thumbs')).toEqual(['help', 'thumbs']);
  });

  it('leaves out Chromium switches before the command', () => {
    expect(args('--no-sandbox', '--ozone-platform=wayland', 'stats', 'a.exr')).toEqual(['stats', 'a.exr']);
  });

  it('sends a near miss of a command to the command line, which suggests the command', () => {
    expect(args('stat', 'x.exr')).toEqual(['stat', 'x.exr']);
    expect(args('thumb', 'shots', '--out', 't')).toEqual(['thumb', 'shots', '--out', 't']);
  });

  it('opens the viewer for no arguments, a folder or file, a path, or switches alone', () => {
    expect(args()).toBeNull();
    expect(args('shots')).toBeNull();
    expect(args('beauty.0001.exr')).toBeNull();
    expect(args('/renders/beauty.0001.exr')).toBeNull();
    expect(args('--no-sandbox', 'shots')).toBeNull();
    expect(args('--enable-logging')).toBeNull();
    // a folder named like a command is the folder
    expect(args('info')).toBeNull();
    expect(args('./stats')).toBeNull();
    // a word far from every command: the viewer, which shows what it can
    expect(args('renders')).toBeNull();
  });
});
