import { describe, expect, it } from 'vitest';
import {
	compileTemplate,
	MissingColumnsError,
	placeholders,
	renderTemplate,
} from '../../../../worker/src/rows/template';

describe('{{Column}} templates', () => {
	const header = ['FirstName', 'Store', 'Code', 'first name'];
	it('renders columns by name, with spaces inside the braces allowed', () => {
		const t = compileTemplate('Hi {{FirstName}}, {{ Store }} has {{Code}}.', header);
		expect(renderTemplate(t, ['Ann', 'Bondi', 'X1', ''])).toEqual({
			text: 'Hi Ann, Bondi has X1.',
		});
	});
	it('matches a column case-insensitively when only one fits', () => {
		const t = compileTemplate('{{store}}', header);
		expect(renderTemplate(t, ['a', 'Manly', 'c', 'd'])).toEqual({ text: 'Manly' });
	});
	it('reports empty and whitespace-only values as errors, naming each column once', () => {
		const t = compileTemplate('{{FirstName}} {{Code}} {{FirstName}}', header);
		expect(renderTemplate(t, ['  ', 'b', '', 'd'])).toEqual({
			emptyColumns: ['FirstName', 'Code'],
		});
	});
	it('refuses a template naming a column the header lacks', () => {
		expect(() => compileTemplate('Hi {{Surname}} {{Nope}}', header)).toThrow(MissingColumnsError);
		expect(() => compileTemplate('Hi {{Surname}}', header)).toThrow(
			/\{\{Surname\}\}.*columns: FirstName, Store, Code/,
		);
	});
	it('leaves text without placeholders alone, single braces included', () => {
		const t = compileTemplate('50% off {today} only', header);
		expect(renderTemplate(t, ['a', 'b', 'c', 'd'])).toEqual({ text: '50% off {today} only' });
		expect(placeholders('{{a}}{{b}}{{a}}')).toEqual(['a', 'b']);
	});
});
